import type { Message } from '../../../core/messages.js';
import type { RunResult } from '../../../core/run-result.js';
import type { RunStore, StoredRunStatus } from '../../../store/run-store.js';
import type { CarriedSupplement } from '../agent-journal.js';
import { ENTRY_TASK_ID, foldAgentJournal } from '../agent-state.js';

/** One run of a session as its raw record shows it (H-1, H-2). */
export interface SessionRun {
  runId: string;
  /** `running` covers a run under way or under recovery: not finished (H-3). */
  status: StoredRunStatus;
  createdAt: number;
  /** The question that started the run. */
  input: string;
  /** Every supplement the run accepted, in order, and whether its entry role saw it. */
  supplements: Array<{ supplementId: string; text: string; consumed: boolean }>;
  /** Supplements this run carried in from earlier runs (S-4). */
  carried: CarriedSupplement[];
  result?: RunResult;
  /** The entry role's own messages, raw: question, supplements, model turns and tool results. */
  messages: Message[];
}

/**
 * Reads the raw record of every agent run of a session, oldest first, by folding each run's
 * journal. Model-visible context is derived from this record; the record itself is never
 * shortened (H-4). Runs written by another engine (workflows) are skipped.
 */
export async function readSessionRuns(
  store: RunStore,
  sessionId: string,
  options: { exceptRunId?: string } = {},
): Promise<SessionRun[]> {
  const runs = await store.listSessionRuns(sessionId);
  const records: SessionRun[] = [];
  for (const run of runs) {
    if (run.runId === options.exceptRunId) continue;
    const journal = await store.readJournal(run.runId);
    if (journal[0]?.type !== 'run-started') continue;
    let state: ReturnType<typeof foldAgentJournal>;
    try {
      state = foldAgentJournal(run.runId, journal);
    } catch {
      continue;
    }
    const entry = state.tasks.get(ENTRY_TASK_ID);
    records.push({
      runId: run.runId,
      status: run.status,
      createdAt: run.createdAt,
      input: state.input,
      supplements: [...state.supplements].map(([supplementId, supplement]) => ({ supplementId, ...supplement })),
      carried: state.carried,
      ...(run.result ? { result: run.result } : {}),
      messages: entry ? entry.messages.slice(entry.ownStart) : [],
    });
  }
  return records;
}
