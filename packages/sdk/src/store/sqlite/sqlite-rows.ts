import type { RunResult } from '../../core/run-result.js';
import { DEFAULT_LABELS } from '../acquire-decision.js';
import type { JournalEntry, RunKind, RunRecord, StoredRunStatus } from '../run-store.js';

/** A row of `agentloom_runs`. */
export interface RunRow {
  run_id: string;
  session_id: string;
  status: string;
  owner_id: string | null;
  epoch: number;
  lease_expires_at: number;
  deadline_at: number;
  loops_used: number;
  last_sequence: number;
  created_at: number;
  updated_at: number;
  result: string | null;
  kind: string;
  name: string;
  metadata: string;
  digest: string | null;
  checkpoint_through: string | null;
  checkpoint_at: number | null;
}

/** A row of `readSession`: a run, and one entry of its journal when its journal was asked for. */
export interface SessionReadRow extends RunRow {
  /** 1 on the run holding the checkpoint the read started after. */
  holds_checkpoint: number | null;
  entry_sequence: number | null;
  entry_epoch: number | null;
  entry_type: string | null;
  entry_task_id: string | null;
  entry_data: string | null;
  entry_at: number | null;
}

/** The named parameters of the `readSession` statement. */
export interface SessionReadParameters {
  session: string;
  kind: string | null;
  except: string | null;
  runs: string;
  /** `afterCheckpoint`: '' for the newest checkpoint, a holder's run id, or null for the whole session. */
  checkpoint: string | null;
}

export interface SessionRow {
  session_id: string;
  runs: number;
  first_run_at: number;
  last_run_at: number;
}

export interface JournalRow {
  sequence: number;
  epoch: number;
  type: string;
  task_id: string | null;
  data: string;
  at: number;
}

/** A run row as the port's `RunRecord`. */
export function toRecord(row: RunRow): RunRecord {
  const record: RunRecord = {
    runId: row.run_id,
    sessionId: row.session_id,
    status: row.status as StoredRunStatus,
    ownerId: row.owner_id,
    epoch: row.epoch,
    leaseExpiresAt: row.lease_expires_at,
    deadlineAt: row.deadline_at,
    loopsUsed: row.loops_used,
    lastSequence: row.last_sequence,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    kind: (row.kind ?? DEFAULT_LABELS.kind) as RunKind,
    name: row.name ?? '',
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, string>) : {},
  };
  if (row.result !== null) record.result = JSON.parse(row.result) as RunResult;
  return record;
}

/** A journal row (or the journal columns of a `readSession` row) as the port's `JournalEntry`. */
export function toJournalEntry(row: JournalRow): JournalEntry {
  const entry: JournalEntry = {
    sequence: row.sequence,
    epoch: row.epoch,
    type: row.type,
    data: JSON.parse(row.data),
    at: row.at,
  };
  if (row.task_id !== null) entry.taskId = row.task_id;
  return entry;
}
