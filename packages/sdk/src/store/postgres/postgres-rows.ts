import { StoreFailureError } from '../../core/errors/index.js';
import type { RunResult } from '../../core/run-result.js';
import type { JournalEntry, RunKind, RunRecord, SessionRunRead, StoredRunStatus } from '../run-store.js';

/**
 * A row of `agentloom_runs` as `pg` returns it. `bigint` columns arrive as strings by default (or
 * as numbers or bigints when the pool's owner installed a type parser), hence `Number(...)`.
 */
export interface RunRow {
  run_id: string;
  session_id: string;
  status: string;
  owner_id: string | null;
  epoch: number;
  lease_expires_at: string | number;
  deadline_at: string | number;
  loops_used: number;
  last_sequence: number;
  created_at: string | number;
  updated_at: string | number;
  result: string | null;
  kind: string;
  name: string;
  metadata: string;
}

/** A row of `agentloom_journal` as `pg` returns it. */
export interface JournalRow {
  sequence: number;
  epoch: number;
  type: string;
  task_id: string | null;
  data: string;
  at: string | number;
}

/** A row of `readRunAndJournal`: the run, with one entry of its journal or none (nulls). */
export type RunAndEntryRow = RunRow & {
  entry_sequence: number | null;
  entry_epoch: number;
  entry_type: string;
  entry_task_id: string | null;
  entry_data: string;
  entry_at: string | number;
};

/** The run and its entries from the rows of a statement that joins them (`RunAndEntryRow`). */
export function toRunAndEntries(
  runId: string,
  rows: readonly RunAndEntryRow[],
): { run: RunRecord | undefined; entries: JournalEntry[] } {
  const first = rows[0];
  if (!first) return { run: undefined, entries: [] };
  const entries: JournalEntry[] = [];
  for (const row of rows) {
    if (row.entry_sequence === null) continue;
    const { entry_sequence: sequence, entry_epoch: epoch, entry_type: type, entry_task_id: task_id } = row;
    entries.push(parseJournalRow(runId, { sequence, epoch, type, task_id, data: row.entry_data, at: row.entry_at }));
  }
  return { run: toRunRecord(first), entries };
}

/** Turns a run row into the port's `RunRecord`. */
export function toRunRecord(row: RunRow): RunRecord {
  const record: RunRecord = {
    runId: row.run_id,
    sessionId: row.session_id,
    status: row.status as StoredRunStatus,
    ownerId: row.owner_id,
    epoch: Number(row.epoch),
    leaseExpiresAt: Number(row.lease_expires_at),
    deadlineAt: Number(row.deadline_at),
    loopsUsed: Number(row.loops_used),
    lastSequence: Number(row.last_sequence),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    kind: row.kind as RunKind,
    name: row.name,
    metadata: parseJson(row.run_id, 'metadata', row.metadata) as Record<string, string>,
  };
  if (row.result !== null) record.result = parseJson(row.run_id, 'result', row.result) as RunResult;
  return record;
}

/** Turns a journal row into the port's `JournalEntry`. */
export function parseJournalRow(runId: string, row: JournalRow): JournalEntry {
  const entry: JournalEntry = {
    sequence: Number(row.sequence),
    epoch: Number(row.epoch),
    type: row.type,
    data: parseJson(runId, `entry ${row.sequence}`, row.data),
    at: Number(row.at),
  };
  if (row.task_id !== null) entry.taskId = row.task_id;
  return entry;
}

/** A row of `readSession`: a run, its digest, and one entry of its journal when that was asked for. */
export interface SessionReadRow extends RunRow {
  digest: string | null;
  /** True on the run holding the checkpoint the read started after (ADR 0012). */
  holds_checkpoint: boolean | null;
  entry_sequence: number | null;
  entry_epoch: number | null;
  entry_type: string | null;
  entry_task_id: string | null;
  entry_data: string | null;
  entry_at: string | number | null;
}

/** Groups the rows of `readSession` (ordered by run, then sequence) into one read per run. */
export function toSessionReads(rows: readonly SessionReadRow[]): SessionRunRead[] {
  const reads: SessionRunRead[] = [];
  let current: SessionRunRead | undefined;
  for (const row of rows) {
    if (current?.run.runId !== row.run_id) {
      current = { run: toRunRecord(row) };
      if (row.digest !== null) current.digest = parseJson(row.run_id, 'digest', row.digest);
      if (row.digest === null) current.journal = [];
      if (row.holds_checkpoint === true) current.checkpoint = true;
      reads.push(current);
    }
    if (row.entry_sequence === null) continue;
    current.journal ??= [];
    current.journal.push(
      parseJournalRow(row.run_id, {
        sequence: row.entry_sequence,
        epoch: row.entry_epoch as number,
        type: row.entry_type as string,
        task_id: row.entry_task_id,
        data: row.entry_data as string,
        at: row.entry_at as string | number,
      }),
    );
  }
  return reads;
}

function parseJson(runId: string, what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoreFailureError(`Run ${runId}: stored ${what} is not valid JSON.`, { cause: error });
  }
}
