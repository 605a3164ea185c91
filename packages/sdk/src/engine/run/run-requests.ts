import type { JournalEntry, NewJournalEntry } from '../../store/run-store.js';

/**
 * Journal records that a host writes without owning a run, shared by both engines: the request
 * that creates a run before an executor takes it (`createRun`), and a durable stop request that
 * whoever owns the run honours (S-5). Kept apart from each engine's own records, which only an
 * owner writes.
 */

/** A run recorded by a host before any executor took it: its input, once. */
export interface RunRequestedRecord {
  type: 'run-requested';
  data: {
    /** The input as the host gave it: text for an agent, a value for a workflow. */
    input: unknown;
    /** Prompt variables for an agent run (C-12). */
    variables?: Record<string, string>;
    /** The session note of an agent run (N-15). */
    sessionNote?: string;
  };
}

/** Someone asked the run to stop; the owner (or the next taker) ends it `user-stop` (S-5). */
export interface StopRequestedRecord {
  type: 'stop-requested';
  data: { reason?: string; requestedBy: string };
}

/** The stop request entry, appended through `appendExternal` by any process. */
export function stopRequestEntry(options: { reason?: string; requestedBy?: string }): NewJournalEntry {
  const record: StopRequestedRecord = {
    type: 'stop-requested',
    data: { requestedBy: options.requestedBy ?? 'user', ...(options.reason !== undefined ? { reason: options.reason } : {}) },
  };
  return record;
}

/** The run request of a journal, if the run was created by a host. */
export function findRunRequest(journal: readonly JournalEntry[]): RunRequestedRecord['data'] | undefined {
  const entry = journal.find((candidate) => candidate.type === 'run-requested');
  return entry ? (entry.data as RunRequestedRecord['data']) : undefined;
}

/** Whether a journal holds a stop request. */
export function hasStopRequest(journal: readonly JournalEntry[]): boolean {
  return journal.some((entry) => entry.type === 'stop-requested');
}
