import type { RunResult, RunStatus } from '../core/run-result.js';

/**
 * Where a run stands in its store. `pending`: created by a host (`createRun`) and not yet taken by
 * an executor; `running`: unfinished work with or without a live owner; `deleted`: a tombstone
 * that refuses every later write and takeover (P-13.2).
 */
export type StoredRunStatus = 'pending' | 'running' | RunStatus | 'deleted';

/** Which engine a run belongs to. */
export type RunKind = 'agent' | 'workflow';

/** Labels a host attaches to a run (a release id, a space): stored on the row, filterable, never read by the engine. */
export type RunMetadata = Record<string, string>;

/** What a run is, fixed when it is created. */
export interface RunLabels {
  kind: RunKind;
  /** The agent's or workflow's name. */
  name: string;
  metadata: RunMetadata;
}

/**
 * The durable row of one run (ARCHITECTURE §2): identity, ownership (owner, lease, epoch as the
 * fencing token), the deadline fixed at creation, the loop budget used so far and, once terminal,
 * the result.
 */
export interface RunRecord extends RunLabels {
  runId: string;
  sessionId: string;
  status: StoredRunStatus;
  /** Current owner, or `null` when no executor holds the run (never started, released, ended). */
  ownerId: string | null;
  /** Fencing token: increased by every takeover. Appends with an older epoch are rejected. */
  epoch: number;
  /** Epoch milliseconds at which the owner's lease ends unless renewed. */
  leaseExpiresAt: number;
  /** Epoch milliseconds of the run deadline, set once at creation and never restarted. */
  deadlineAt: number;
  /** Business loops charged so far, across every role. */
  loopsUsed: number;
  /** Sequence number of the last journal entry (0 when empty). */
  lastSequence: number;
  createdAt: number;
  updatedAt: number;
  /** Present once `status` is terminal. */
  result?: RunResult;
}

/** A journal entry as the engine writes it: a typed fact, optionally scoped to one task. */
export interface NewJournalEntry {
  type: string;
  taskId?: string;
  data: unknown;
}

/** A journal entry as stored: numbered from 1 without gaps, stamped with its writer's epoch. */
export interface JournalEntry extends NewJournalEntry {
  sequence: number;
  epoch: number;
  at: number;
}

/** Which part of a journal `readJournal` returns. */
export interface ReadJournalOptions {
  /** Only entries with a greater sequence. Default 0 (from the start). */
  afterSequence?: number;
  /** At most this many entries (a positive integer). Default: all. */
  limit?: number;
}

/** Asks a store to create a run, take it over, or report who has it. */
export interface AcquireRequest {
  runId: string;
  sessionId: string;
  ownerId: string;
  leaseMs: number;
  /** Deadline for a newly created run; ignored when the run exists. */
  deadlineAt: number;
  /** Journal entries written atomically with the creation of a new run (the input, R-3). */
  initialEntries: readonly NewJournalEntry[];
  /** What a newly created run is; ignored when the run exists. Default: an agent run without name or metadata. */
  labels?: RunLabels;
  /**
   * The run must exist (a host created it, or a resume): a missing run is refused with
   * `RunNotFoundError` instead of being created, so that a resume needs no `getRun` first.
   */
  mustExist?: boolean;
  /**
   * With an `acquired` outcome, answer the run's journal too (`journal`), read in the same round
   * trip where the store can (the owner reads it next anyway). A store may ignore it.
   */
  withJournal?: boolean;
}

/** Records a run without executing it (`pending`, no owner), with its first entries. */
export interface CreateRunRequest {
  runId: string;
  sessionId: string;
  labels: RunLabels;
  entries: readonly NewJournalEntry[];
}

/** A position in a listing, newest first: the last row of the previous page. */
export interface RunListPosition {
  createdAt: number;
  runId: string;
}

/** Which runs `listRuns` returns, newest first. */
export interface RunListQuery {
  sessionId?: string;
  kind?: RunKind;
  status?: StoredRunStatus;
  /** Every pair must match exactly. */
  metadata?: RunMetadata;
  /** Page size, 1…1000. */
  limit: number;
  /** Only runs strictly older than this position (keyset pagination). */
  before?: RunListPosition;
}

/** A session as the store sees it: its runs' count and time span. */
export interface SessionRecord {
  sessionId: string;
  runs: number;
  firstRunAt: number;
  lastRunAt: number;
}

/** Which sessions `listSessions` returns, most recently active first. */
export interface SessionListQuery {
  limit: number;
  before?: { lastRunAt: number; sessionId: string };
}

/**
 * The answer to `acquire`: `created` a new run, `acquired` an unfinished run whose lease had
 * ended (epoch + 1), `owned-elsewhere` while a live owner holds it, `terminal` for a finished run.
 */
export type AcquireResult =
  | { outcome: 'created'; run: RunRecord }
  | { outcome: 'acquired'; run: RunRecord; journal?: JournalEntry[] }
  | { outcome: 'owned-elsewhere'; run: RunRecord }
  | { outcome: 'terminal'; run: RunRecord };

/** A write by someone who does not own the run: a user supplement arriving at any machine (S-1). */
export interface ExternalAppendRequest {
  runId: string;
  entries: readonly NewJournalEntry[];
}

/** An atomic, fenced write: entries plus the run-row change they imply. */
export interface AppendRequest {
  runId: string;
  /** The writer's epoch; the write is rejected unless it is still current. */
  epoch: number;
  entries: readonly NewJournalEntry[];
  /** Loops charged by these entries, added to `loopsUsed` in the same transaction. */
  chargeLoops?: number;
  /**
   * Writes only if the run's journal still ends at this sequence: when anyone appended since
   * (an external entry), nothing is written and the call rejects with `JournalMovedError`. Lets
   * an owner commit a decision taken on the journal it has seen without reading the journal
   * first: one store call instead of two (ADR 0025). The epoch fence is checked first.
   */
  ifLastSequence?: number;
  /** Ends the run with this result in the same transaction; the owner is cleared. */
  terminal?: RunResult;
  /**
   * With `terminal` only: a small JSON value the engine attaches to the finished run (the agent
   * engine: its inputs and unconsumed supplements), kept on the run's row so that `readSession`
   * answers it without reading the run's journal (issue 18, ADR 0010).
   */
  digest?: unknown;
  /**
   * With `terminal` and `digest` only: the digest holds a session checkpoint (ADR 0012) that
   * covers the session up to and including this earlier run. It must be a run of the same session
   * created strictly before this one; otherwise the append is refused (`InvalidRunRequestError`)
   * and nothing is written. `readSession({ afterCheckpoint })` finds the newest checkpoint by it.
   */
  checkpointThrough?: string;
}

/** Which part of a session `readSession` returns. */
export interface ReadSessionRequest {
  sessionId: string;
  /** Only runs of this kind. Default: every kind. */
  kind?: RunKind;
  /** Leaves this run out (the run being started or resumed). */
  exceptRunId?: string;
  /** Journals of the this many most recent finished runs (non-negative integer). Default 0. */
  recentFinished?: number;
  /** Journals of these runs as well. */
  journalsOf?: readonly string[];
  /**
   * Reads only the part of the session after a checkpoint (ADR 0012): `true` for the newest one
   * (the checkpoint whose covered run is the latest), or the id of the run that holds a given
   * one. Then only runs created after the run the checkpoint covers through are answered; the
   * holder is among them, marked `checkpoint: true`, and `recentFinished` counts among them. Without
   * such a checkpoint (none yet, or its holder was deleted) the whole session is answered and no
   * run is marked.
   */
  afterCheckpoint?: true | string;
}

/**
 * One run of a session as `readSession` answers it: its row, its digest (written with its
 * terminal append) and, for the runs whose journal was asked for or that have no digest, its
 * whole journal in sequence order.
 */
export interface SessionRunRead {
  run: RunRecord;
  digest?: unknown;
  journal?: JournalEntry[];
  /** Set on the run whose digest holds the checkpoint `afterCheckpoint` started from. */
  checkpoint?: true;
}

/**
 * The port through which everything durable passes (B-3). Every adapter must pass
 * `runStoreContract` from `@agentloom/sdk/testing/contract`.
 *
 * Guarantees an adapter gives:
 * - `acquire` is atomic: of several concurrent callers on one run, at most one gets `created` or
 *   `acquired` while the lease lives.
 * - `append` writes all entries and the row change in one transaction, and only if `epoch` is
 *   still current and the run is not terminal; otherwise it throws `StaleEpochError` and writes
 *   nothing.
 * - Sequences are dense and ordered, owner and external entries alike; `readJournal` returns
 *   entries in sequence order.
 */
export interface RunStore {
  acquire(request: AcquireRequest): Promise<AcquireResult>;
  /**
   * Records a `pending` run with its first entries unless the run id exists; answers the row
   * either way (`created` says which). `acquire` later takes a pending run like an ownerless one.
   */
  createRun(request: CreateRunRequest): Promise<{ created: boolean; run: RunRecord }>;
  /**
   * Extends the lease of the current owner; throws `StaleEpochError` when the epoch is stale.
   * Reports the journal's last sequence, so the owner sees entries others appended (a stop
   * request, a supplement) within a third of its lease without another query.
   */
  renewLease(runId: string, epoch: number, leaseMs: number): Promise<{ leaseExpiresAt: number; lastSequence: number }>;
  append(request: AppendRequest): Promise<{ lastSequence: number }>;
  /**
   * Appends entries without ownership, stamped epoch 0, while the run is not terminal; throws
   * `RunNotActiveError` for a finished or unknown run (its text then belongs to a new run, S-2).
   * The owner finds these entries in the journal and applies them in sequence order.
   */
  appendExternal(request: ExternalAppendRequest): Promise<{ lastSequence: number }>;
  /** Gives the run up (lease ends now) so another executor can take it without waiting. */
  releaseLease(runId: string, epoch: number): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Entries after `afterSequence` (default 0) in sequence order, at most `limit` of them (default all). */
  readJournal(runId: string, options?: ReadJournalOptions): Promise<JournalEntry[]>;
  /**
   * Optional: `getRun` and `readJournal` in one read of one snapshot (issue 34: a follower's first
   * read, where the run ended before it came, costs one round trip instead of two). `run` is
   * undefined, and `entries` empty, for a run that does not exist. A store without it is read
   * with the two calls.
   */
  readRunAndJournal?(
    runId: string,
    options?: ReadJournalOptions,
  ): Promise<{ run: RunRecord | undefined; entries: JournalEntry[] }>;
  /** Runs of one session, oldest first (tombstones excluded). */
  listSessionRuns(sessionId: string): Promise<RunRecord[]>;
  /**
   * Reads a session in one query (issue 18): every run of it, oldest first (tombstones and
   * `exceptRunId` excluded), each with its digest, and the whole journal of (a) the
   * `recentFinished` most recent finished runs, (b) the runs named in `journalsOf`, (c) every run
   * without a digest (unfinished, or finished before digests existed). Other journals are not read.
   */
  readSession(request: ReadSessionRequest): Promise<SessionRunRead[]>;
  /**
   * Optional wake-ups (ADR 0025): calls `listener` after entries are appended to `runId` or the
   * run is deleted, as soon as the store hears of it, so that a follower waits without polling.
   * A signal only — it may come more than once per write, or for nothing — and it may miss writes
   * the store cannot hear (another process, on some stores): followers keep a slow poll as a
   * safety net. Returns the function that stops the wake-ups. A store without it is polled.
   * `through`, when the store knows it: the journal's last sequence after the write, so that a
   * follower that has read that far goes on waiting instead of reading nothing (issue 34).
   */
  watchRun?(runId: string, listener: (through?: number) => void): () => void;
  /** Runs matching the query, newest first (tombstones excluded). */
  listRuns(query: RunListQuery): Promise<RunRecord[]>;
  /** Sessions with at least one run, most recently active first. */
  listSessions(query: SessionListQuery): Promise<SessionRecord[]>;
  /**
   * Deletes finished runs: their journals go, each row stays as a `deleted` tombstone. Refuses
   * with `RunNotFinishedError` (deleting nothing) if any of them is unfinished; unknown ids are
   * ignored. Answers the ids deleted.
   */
  deleteRuns(runIds: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}
