import { type Message, RunNotFoundError, type SessionRun } from '@agentloom/sdk';
import { runsOfSession } from '../../adapters/database/repositories/run-repository.js';
import type { PlatformContext } from '../context.js';
import { type ApiRunStatus, apiStatusOf } from './run-status.js';

/** How a supplement of a run ended up (PLATFORM.md §4.5): seen by the entry role, still waiting, or handed to the next run (S-4). */
export type SupplementMark = 'consumed' | 'pending' | 'carried-over';

/** One run of a session's raw record, as `GET /sessions/:id/history` shows it. */
export interface HistoryRun {
  runId: string;
  status: ApiRunStatus;
  /** True while the run is queued or running: its record is still growing (H-3). */
  unfinished: boolean;
  createdAt: string;
  input: string | null;
  supplements: { supplementId: string; text: string; status: SupplementMark }[];
  /** Supplements an earlier run left unseen that this run received (S-4). */
  carriedIn: { supplementId: string; text: string; fromRunId: string }[];
  outcome: { status: string; reason: string | null; output: string | null } | null;
  /** The entry role's raw messages: question, supplements, model turns, tool results. */
  messages: Message[];
}

/**
 * The raw record of every run of a session, oldest first (H-1, PLATFORM.md §4.4), read through
 * the SDK's public API: `RunClient.readSessionHistory` for the runs that started (inputs, supplements with
 * consumed marks, carried supplements, outcomes, messages), and `RunClient.describeRun` and
 * the store port's `readJournal` for runs that never started (queued, or stopped while queued, D-P10), so that
 * every question the session was asked appears. Never shortened, whatever the model sees.
 */
export async function readSessionHistory(services: PlatformContext, sessionId: string): Promise<HistoryRun[]> {
  const { database, runClient, runStore } = services;
  const started = new Map<string, SessionRun>();
  for (const run of await runClient.readSessionHistory(sessionId)) started.set(run.runId, run);
  const rows = await runsOfSession(database, sessionId);
  const history: HistoryRun[] = [];
  for (const row of rows) {
    let description: Awaited<ReturnType<typeof runClient.describeRun>>;
    try {
      description = await runClient.describeRun(row.id);
    } catch (error) {
      if (error instanceof RunNotFoundError) continue;
      throw error;
    }
    const status = apiStatusOf(description);
    const unfinished = description.status === 'pending' || description.status === 'running';
    const outcome = description.result
      ? {
          status: description.result.status,
          reason: description.result.reason ?? null,
          output: description.result.output ?? null,
        }
      : null;
    const record = started.get(row.id);
    if (record) {
      history.push({
        runId: row.id,
        status,
        unfinished,
        createdAt: row.created_at,
        input: record.input,
        supplements: record.supplements.map((supplement) => ({
          supplementId: supplement.supplementId,
          text: supplement.text,
          status: supplement.consumed ? 'consumed' : unfinished ? 'pending' : 'carried-over',
        })),
        carriedIn: record.carried.map((carried) => ({
          supplementId: carried.supplementId,
          text: carried.text,
          fromRunId: carried.runId,
        })),
        outcome,
        messages: record.messages,
      });
      continue;
    }
    // Never started: its journal (the store port) holds the supplements accepted while queued.
    const journal = await runStore.readJournal(row.id);
    history.push({
      runId: row.id,
      status,
      unfinished,
      createdAt: row.created_at,
      input: typeof description.input === 'string' ? description.input : null,
      supplements: journal.flatMap((entry) => {
        if (entry.type !== 'supplement-accepted') return [];
        const data = entry.data as { supplementId: string; text: string };
        return [{ supplementId: data.supplementId, text: data.text, status: unfinished ? 'pending' : 'carried-over' } as const];
      }),
      carriedIn: [],
      outcome,
      messages: [],
    });
  }
  return history;
}
