import {
  JournalMovedError,
  RunNotActiveError,
  RunNotFinishedError,
  StaleEpochError,
  StoreFailureError,
} from '../../core/errors/index.js';
import { assertIdentifier } from '../../core/ids.js';
import { decideAcquire, isUnfinished, pendingRun } from '../acquire-decision.js';
import {
  assertAcquireRequest,
  assertCheckpointThrough,
  assertReadJournal,
  assertReadSession,
  notAnEarlierRun,
} from '../request-validation.js';
import { RunChangeNotifier } from '../run-change-notifier.js';
import { compareNewestFirst, matchesRunQuery, summariseSessions } from '../run-listing.js';
import type {
  AcquireRequest,
  AcquireResult,
  AppendRequest,
  CreateRunRequest,
  ExternalAppendRequest,
  JournalEntry,
  ReadJournalOptions,
  ReadSessionRequest,
  RunListQuery,
  RunRecord,
  RunStore,
  SessionListQuery,
  SessionRecord,
  SessionRunRead,
} from '../run-store.js';

/**
 * The checkpoint `afterCheckpoint` asks for in a session (oldest first, tombstones included): the
 * newest (latest covered run) or the one a given run holds, and the index just past the run it
 * covers through. Undefined when there is none (a deleted holder holds none).
 */
function findCheckpoint(session: readonly StoredRun[], wanted: true | string): { holder: StoredRun; after: number } | undefined {
  const positions = new Map(session.map((stored, index) => [stored.record.runId, index]));
  let found: { holder: StoredRun; after: number } | undefined;
  for (const stored of session) {
    if (stored.checkpointThrough === undefined || stored.record.status === 'deleted') continue;
    if (wanted !== true && stored.record.runId !== wanted) continue;
    const through = positions.get(stored.checkpointThrough);
    if (through === undefined) continue;
    if (!found || through + 1 > found.after) found = { holder: stored, after: through + 1 };
  }
  return found;
}

/** Options of `MemoryRunStore`. */
export interface MemoryRunStoreOptions {
  /** Clock for leases; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * A journal entry as kept: its data serialised as JSON, as the durable stores keep it, so that a
 * reader never shares the writer's objects and gets exactly what SQLite or PostgreSQL would give
 * back. Serialising once on write and parsing only what is read costs a fraction of a structured
 * clone per entry, and a run's own owner never reads back what it wrote.
 */
interface StoredEntry {
  sequence: number;
  epoch: number;
  at: number;
  type: string;
  taskId?: string;
  /** `JSON.stringify` of the entry's data (`null` for none, like the durable stores). */
  json: string;
}

interface StoredRun {
  /** The run's row, without its result (kept as `resultJson`). */
  record: RunRecord;
  /** `JSON.stringify` of the run's result once it ended, as the durable stores keep it. */
  resultJson?: string;
  journal: StoredEntry[];
  /** Serialised like the durable stores keep it, so a reader never shares the writer's object. */
  digest?: string;
  /** The earlier run the digest's checkpoint covers the session through (ADR 0012). */
  checkpointThrough?: string;
}

/**
 * A `RunStore` kept in this process's memory, for examples and tests. It follows the same
 * contract as the durable stores (fencing included) but a crash loses everything: use
 * `SqliteRunStore` or `PostgresRunStore` for runs that must survive one.
 */
export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, StoredRun>();
  private readonly now: () => number;
  private readonly changes = new RunChangeNotifier();
  private closed = false;

  constructor(options: MemoryRunStoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    this.assertOpen();
    assertAcquireRequest(request);
    const now = this.now();
    const stored = this.runs.get(request.runId);
    const decision = decideAcquire(stored?.record, request, now);
    if (decision.outcome === 'created') {
      const journal = request.initialEntries.map((entry, index) => toStored(entry, index + 1, 1, now));
      this.runs.set(request.runId, { record: { ...decision.run, lastSequence: journal.length }, journal });
      this.changes.notify(request.runId, journal.length);
    } else if (decision.outcome === 'acquired' && stored) {
      stored.record = decision.run;
    }
    const kept = this.runs.get(request.runId);
    return { outcome: decision.outcome, run: kept ? recordOf(kept) : copyRecord(decision.run) };
  }

  async createRun(request: CreateRunRequest): Promise<{ created: boolean; run: RunRecord }> {
    this.assertOpen();
    assertIdentifier('runId', request.runId);
    assertIdentifier('sessionId', request.sessionId);
    const existing = this.runs.get(request.runId);
    if (existing) return { created: false, run: recordOf(existing) };
    const now = this.now();
    const journal = request.entries.map((entry, index) => toStored(entry, index + 1, 1, now));
    const record = pendingRun(request, now);
    this.runs.set(request.runId, { record, journal });
    return { created: true, run: copyRecord(record) };
  }

  async renewLease(runId: string, epoch: number, leaseMs: number): Promise<{ leaseExpiresAt: number; lastSequence: number }> {
    assertIdentifier('runId', runId);
    const stored = this.fenced(runId, epoch);
    const now = this.now();
    stored.record.leaseExpiresAt = now + leaseMs;
    stored.record.updatedAt = now;
    return { leaseExpiresAt: stored.record.leaseExpiresAt, lastSequence: stored.record.lastSequence };
  }

  async append(request: AppendRequest): Promise<{ lastSequence: number }> {
    assertIdentifier('runId', request.runId);
    assertCheckpointThrough(request);
    const stored = this.fenced(request.runId, request.epoch);
    const now = this.now();
    const record = stored.record;
    if (request.ifLastSequence !== undefined && record.lastSequence !== request.ifLastSequence) {
      throw new JournalMovedError(request.runId, request.ifLastSequence, record.lastSequence);
    }
    if (request.checkpointThrough !== undefined) {
      const through = this.runs.get(request.checkpointThrough)?.record;
      if (!through || through.sessionId !== record.sessionId || through.createdAt >= record.createdAt) {
        throw notAnEarlierRun(request);
      }
    }
    for (const entry of request.entries) {
      record.lastSequence += 1;
      stored.journal.push(toStored(entry, record.lastSequence, request.epoch, now));
    }
    record.loopsUsed += request.chargeLoops ?? 0;
    record.updatedAt = now;
    if (request.terminal) {
      record.status = request.terminal.status;
      stored.resultJson = JSON.stringify(request.terminal);
      if (request.digest !== undefined) stored.digest = JSON.stringify(request.digest);
      if (request.checkpointThrough !== undefined) stored.checkpointThrough = request.checkpointThrough;
      record.ownerId = null;
      record.leaseExpiresAt = 0;
    }
    this.changes.notify(request.runId, record.lastSequence);
    return { lastSequence: record.lastSequence };
  }

  async appendExternal(request: ExternalAppendRequest): Promise<{ lastSequence: number }> {
    this.assertOpen();
    assertIdentifier('runId', request.runId);
    const stored = this.runs.get(request.runId);
    if (!stored || !isUnfinished(stored.record.status)) {
      throw new RunNotActiveError(request.runId, stored?.record.status ?? 'unknown');
    }
    const now = this.now();
    for (const entry of request.entries) {
      stored.record.lastSequence += 1;
      stored.journal.push(toStored(entry, stored.record.lastSequence, 0, now));
    }
    this.changes.notify(request.runId, stored.record.lastSequence);
    return { lastSequence: stored.record.lastSequence };
  }

  async releaseLease(runId: string, epoch: number): Promise<void> {
    this.assertOpen();
    assertIdentifier('runId', runId);
    const stored = this.runs.get(runId);
    if (!stored || stored.record.epoch !== epoch || stored.record.status !== 'running') return;
    stored.record.ownerId = null;
    stored.record.leaseExpiresAt = 0;
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    this.assertOpen();
    assertIdentifier('runId', runId);
    const stored = this.runs.get(runId);
    return stored ? recordOf(stored) : undefined;
  }

  async readJournal(runId: string, options: ReadJournalOptions = {}): Promise<JournalEntry[]> {
    this.assertOpen();
    assertReadJournal(runId, options);
    return this.entriesOf(runId, options);
  }

  /** The journal entries a read with `options` answers (checked by the caller). */
  private entriesOf(runId: string, options: ReadJournalOptions): JournalEntry[] {
    const after = Math.max(0, options.afterSequence ?? 0);
    // Sequences are dense from 1, so the entries after `after` start at index `after`.
    const journal = this.runs.get(runId)?.journal ?? [];
    return journal.slice(after, options.limit === undefined ? undefined : after + options.limit).map(readEntry);
  }

  async readRunAndJournal(runId: string, options: ReadJournalOptions = {}) {
    this.assertOpen();
    assertReadJournal(runId, options);
    const stored = this.runs.get(runId);
    return { run: stored ? recordOf(stored) : undefined, entries: this.entriesOf(runId, options) };
  }

  async listSessionRuns(sessionId: string): Promise<RunRecord[]> {
    this.assertOpen();
    assertIdentifier('sessionId', sessionId);
    return [...this.runs.values()]
      .filter(({ record }) => record.sessionId === sessionId && record.status !== 'deleted')
      .sort((a, b) => a.record.createdAt - b.record.createdAt)
      .map(recordOf);
  }

  async readSession(request: ReadSessionRequest): Promise<SessionRunRead[]> {
    this.assertOpen();
    assertReadSession(request);
    // Oldest first, tombstones included (a deleted run still marks where a checkpoint ends); the
    // sort is stable, so runs created in the same millisecond keep their order.
    const session = [...this.runs.values()]
      .filter(({ record }) => record.sessionId === request.sessionId)
      .sort((a, b) => a.record.createdAt - b.record.createdAt);
    const checkpoint = request.afterCheckpoint === undefined ? undefined : findCheckpoint(session, request.afterCheckpoint);
    const runs = session
      .slice(checkpoint ? checkpoint.after : 0)
      .filter(
        ({ record }) =>
          record.status !== 'deleted' &&
          record.runId !== request.exceptRunId &&
          (request.kind === undefined || record.kind === request.kind),
      );
    const journals = new Set(request.journalsOf ?? []);
    const finished = runs.filter(({ record }) => !isUnfinished(record.status));
    const recent = request.recentFinished ?? 0;
    for (const { record } of recent > 0 ? finished.slice(-recent) : []) journals.add(record.runId);
    return runs.map((stored) => {
      const read: SessionRunRead = { run: recordOf(stored) };
      if (stored.digest !== undefined) read.digest = JSON.parse(stored.digest);
      if (stored.digest === undefined || journals.has(stored.record.runId)) read.journal = stored.journal.map(readEntry);
      if (stored === checkpoint?.holder) read.checkpoint = true;
      return read;
    });
  }

  async listRuns(query: RunListQuery): Promise<RunRecord[]> {
    this.assertOpen();
    return [...this.runs.values()]
      .filter((stored) => matchesRunQuery(stored.record, query))
      .sort((a, b) => compareNewestFirst(a.record, b.record))
      .slice(0, query.limit)
      .map(recordOf);
  }

  async listSessions(query: SessionListQuery): Promise<SessionRecord[]> {
    this.assertOpen();
    return summariseSessions(
      [...this.runs.values()].map((stored) => stored.record),
      query,
    );
  }

  async deleteRuns(runIds: readonly string[]): Promise<string[]> {
    this.assertOpen();
    const found = runIds.flatMap((runId) => {
      const stored = this.runs.get(runId);
      return stored && stored.record.status !== 'deleted' ? [stored] : [];
    });
    const unfinished = found.filter((stored) => isUnfinished(stored.record.status)).map((stored) => stored.record.runId);
    if (unfinished.length > 0) throw new RunNotFinishedError(unfinished, 'delete');
    const now = this.now();
    for (const stored of found) {
      stored.journal = [];
      delete stored.digest;
      delete stored.checkpointThrough;
      stored.record.status = 'deleted';
      stored.record.updatedAt = now;
      delete stored.resultJson;
      this.changes.notify(stored.record.runId);
    }
    return found.map((stored) => stored.record.runId);
  }

  /** Wakes a follower after each write to `runId` (ADR 0025); every writer is in this process, so none is missed. */
  watchRun(runId: string, listener: (through?: number) => void): () => void {
    return this.changes.watch(runId, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private fenced(runId: string, epoch: number): StoredRun {
    this.assertOpen();
    const stored = this.runs.get(runId);
    if (!stored) throw new StaleEpochError(runId, epoch, 'the run does not exist');
    if (stored.record.epoch !== epoch) throw new StaleEpochError(runId, epoch);
    if (stored.record.status !== 'running') throw new StaleEpochError(runId, epoch, 'the run has ended');
    return stored;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreFailureError('MemoryRunStore is closed.');
  }
}

function toStored(
  entry: { type: string; taskId?: string; data: unknown },
  sequence: number,
  epoch: number,
  at: number,
): StoredEntry {
  const stored: StoredEntry = { sequence, epoch, at, type: entry.type, json: JSON.stringify(entry.data) ?? 'null' };
  if (entry.taskId !== undefined) stored.taskId = entry.taskId;
  return stored;
}

/**
 * A kept run's row as a reader gets it: a copy of its fields and labels, and its result parsed
 * from what was kept (a structured clone of the row and its result cost about 18 µs per run).
 */
function recordOf(stored: StoredRun): RunRecord {
  const record = copyRecord(stored.record);
  if (stored.resultJson !== undefined) record.result = JSON.parse(stored.resultJson);
  return record;
}

/** A copy of a row without a result: its fields are numbers and strings, its metadata strings. */
function copyRecord(record: RunRecord): RunRecord {
  return { ...record, metadata: { ...record.metadata } };
}

/** A kept entry as a reader gets it: a fresh copy of its data. */
function readEntry(stored: StoredEntry): JournalEntry {
  const entry: JournalEntry = {
    sequence: stored.sequence,
    epoch: stored.epoch,
    at: stored.at,
    type: stored.type,
    data: JSON.parse(stored.json),
  };
  if (stored.taskId !== undefined) entry.taskId = stored.taskId;
  return entry;
}
