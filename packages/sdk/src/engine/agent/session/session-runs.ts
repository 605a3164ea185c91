import type { Message } from '../../../core/messages.js';
import type { RunResult } from '../../../core/run-result.js';
import type { JournalEntry, RunStore, SessionRunRead, StoredRunStatus } from '../../../store/run-store.js';
import type { AgentRunDigest, CarriedSupplement, RunVariant, SessionCheckpoint } from '../agent-journal.js';
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
  /** The session checkpoint this run made (ADR 0012), from its digest. */
  checkpoint?: SessionCheckpoint;
  /** Set on the run holding the checkpoint a read with `afterCheckpoint` started after. */
  holdsCheckpoint?: true;
  /** The run's variant group, when it regenerated an earlier answer (N-15). */
  variant?: RunVariant;
}

/**
 * A run as a session read answers it: `messages` is present when the run's journal was read (the
 * runs whose messages were asked for, and those without a digest: unfinished, or finished before
 * digests existed).
 */
export type SessionRunSummary = Omit<SessionRun, 'messages'> & { messages?: Message[] };

/** Which journals `readSessionRuns` reads besides the runs without a digest. */
export interface SessionReadOptions {
  /** Leaves this run out (the run being started or resumed). */
  exceptRunId?: string;
  /** Messages of the this many most recent finished runs. Default: every run's. */
  recentFinished?: number;
  /** Messages of these runs as well. */
  messagesOf?: readonly string[];
  /** Only the runs after the newest (`true`) or a given run's checkpoint (ADR 0012). */
  afterCheckpoint?: true | string;
}

/** Journals of every run: the whole raw record (PostgreSQL's largest `integer`). */
const EVERY_RUN = 2_147_483_647;

/**
 * Reads the raw record of the agent runs of a session, oldest first, in one store query
 * (`readSession`, issue 18): a finished run comes from the digest on its row, and only the runs
 * whose messages are wanted, or that have no digest, have their journal read and folded.
 * Model-visible context is derived from this record; the record itself is never shortened (H-4).
 * Runs that never started (no `run-started`, no digest) are skipped.
 */
export async function readSessionRuns(
  store: RunStore,
  sessionId: string,
  options: SessionReadOptions = {},
): Promise<SessionRunSummary[]> {
  const reads = await store.readSession({
    sessionId,
    kind: 'agent',
    ...(options.exceptRunId !== undefined ? { exceptRunId: options.exceptRunId } : {}),
    recentFinished: options.recentFinished ?? EVERY_RUN,
    journalsOf: options.messagesOf ?? [],
    ...(options.afterCheckpoint !== undefined ? { afterCheckpoint: options.afterCheckpoint } : {}),
  });
  const records: SessionRunSummary[] = [];
  for (const read of reads) {
    const record = toSessionRun(read);
    if (record) records.push(record);
  }
  return records;
}

function toSessionRun(read: SessionRunRead): SessionRunSummary | undefined {
  const { run } = read;
  const base = {
    runId: run.runId,
    status: run.status,
    createdAt: run.createdAt,
    ...(run.result ? { result: run.result } : {}),
    ...(read.checkpoint ? { holdsCheckpoint: true as const } : {}),
  };
  const folded = read.journal ? foldRun(run.runId, read.journal) : undefined;
  if (read.digest !== undefined) {
    const digest = read.digest as AgentRunDigest;
    return {
      ...base,
      input: digest.input,
      supplements: digest.supplements,
      carried: digest.carried,
      ...(digest.variant ? { variant: digest.variant } : {}),
      ...(digest.checkpoint ? { checkpoint: digest.checkpoint } : {}),
      ...(folded ? { messages: folded.messages } : {}),
    };
  }
  return folded ? { ...base, ...folded } : undefined;
}

function foldRun(
  runId: string,
  journal: readonly JournalEntry[],
): Omit<SessionRun, 'runId' | 'status' | 'createdAt'> | undefined {
  if (!journal.some((entry) => entry.type === 'run-started')) return undefined;
  let state: ReturnType<typeof foldAgentJournal>;
  try {
    // Only the run's own messages are kept, so a format-2 history needs no resolving here.
    state = foldAgentJournal(runId, journal, []);
  } catch {
    return undefined;
  }
  const entry = state.tasks.get(ENTRY_TASK_ID);
  return {
    input: state.input,
    supplements: [...state.supplements].map(([supplementId, supplement]) => ({ supplementId, ...supplement })),
    carried: state.carried,
    ...(state.variant ? { variant: state.variant } : {}),
    messages: entry ? entry.messages.slice(entry.ownStart) : [],
  };
}

/** The whole raw record of a session (H-1): every run with its messages, oldest first. */
export async function readSessionRecord(store: RunStore, sessionId: string): Promise<SessionRun[]> {
  const runs = await readSessionRuns(store, sessionId);
  return runs.map((run) => ({ ...run, messages: run.messages ?? [] }));
}

/** The digest a finished run leaves on its row, from its final state. */
export function digestOf(state: {
  input: string;
  supplements: ReadonlyMap<string, { text: string; consumed: boolean }>;
  carried: readonly CarriedSupplement[];
  checkpoint?: SessionCheckpoint;
  variant?: RunVariant;
}): AgentRunDigest {
  return {
    ...(state.variant ? { variant: state.variant } : {}),
    ...(state.checkpoint ? { checkpoint: state.checkpoint } : {}),
    input: state.input,
    supplements: [...state.supplements].map(([supplementId, supplement]) => ({
      supplementId,
      text: supplement.text,
      consumed: supplement.consumed,
    })),
    carried: state.carried.map(({ runId, supplementId, text }) => ({ runId, supplementId, text })),
  };
}
