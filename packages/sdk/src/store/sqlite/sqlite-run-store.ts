import Database from 'better-sqlite3';
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
import type {
  AcquireRequest,
  AcquireResult,
  AppendRequest,
  CreateRunRequest,
  ExternalAppendRequest,
  JournalEntry,
  NewJournalEntry,
  ReadJournalOptions,
  ReadSessionRequest,
  RunListQuery,
  RunRecord,
  RunStore,
  SessionListQuery,
  SessionRecord,
  SessionRunRead,
  StoredRunStatus,
} from '../run-store.js';
import { type BackgroundCheckpoints, startBackgroundCheckpoints } from './background-checkpoints.js';
import { yieldIfTurnIsLong } from './event-loop-turns.js';
import { type FileIdentity, readFileIdentity, StoreFileGuard } from './file-identity.js';
import { LOCK_SPIN_MS, waitForLock } from './lock-waits.js';
import { migrate } from './migrations.js';
import { SqliteChanges, type SqliteWriteRelay } from './sqlite-changes.js';
import { isSqliteBusy, toSqliteStoreError } from './sqlite-errors.js';
import { type RunRow, toJournalEntry, toRecord } from './sqlite-rows.js';
import { runListQuery } from './sqlite-run-list.js';
import { prepareStatements, type SqliteStatements } from './sqlite-statements.js';

/** Options of `SqliteRunStore`. */
export interface SqliteRunStoreOptions {
  /** Path of the database file; created if missing. */
  path: string;
  /**
   * SQLite `synchronous` level. `normal` (default) survives any process crash, which is what a
   * run promises; `full` also survives a power cut, at the price of one fsync per commit.
   */
  synchronous?: 'normal' | 'full';
  /**
   * How long a call waits for another process's write lock, in milliseconds. Default 5000. The
   * wait never blocks the event loop: the lock is tried again at each turn of the loop for 2 ms,
   * then with back-off on timers (`waitForLock`); a call still locked out after this long fails
   * with a transient `StoreFailureError`.
   */
  busyTimeoutMs?: number;
  /** Clock for leases; defaults to `Date.now`. */
  now?: () => number;
  /**
   * Who copies the WAL into the database file. `automatic` (default): SQLite, inside the commit
   * that crosses 1,000 WAL pages, on the committing thread. `background`: a thread of the store's
   * own, every 250 ms (`startBackgroundCheckpoints`), so that no commit stalls the event loop
   * for a checkpoint: for servers where one event loop serves many runs.
   */
  checkpoints?: 'automatic' | 'background';
}

/** Which file check a store call makes first: none (reads), the cheap one (owner commits), the full one (other writes). */
type FileCheck = 'none' | 'linked' | 'path';

/** First wait for a lock held by another process, in milliseconds; doubled up to `LONGEST_LOCK_WAIT_MS`. */
const FIRST_LOCK_WAIT_MS = 2;
const LONGEST_LOCK_WAIT_MS = 100;

/**
 * The embedded default `RunStore`: one SQLite file in WAL mode, shared safely by several
 * processes on one machine. Every append is one `BEGIN IMMEDIATE` transaction that checks the
 * writer's epoch before it writes, so a stale owner can never interleave with the new one.
 */
export class SqliteRunStore implements RunStore {
  private readonly database: Database.Database;
  private readonly opened: FileIdentity | undefined;
  /** Refuses writes once the file is deleted or replaced (undefined for an in-memory database). */
  private readonly guard: StoreFileGuard | undefined;
  private readonly busyTimeoutMs: number;
  private readonly now: () => number;
  private readonly statements: SqliteStatements;
  private readonly appendTransaction;
  private readonly acquireTransaction;
  private readonly externalTransaction;
  private readonly createTransaction;
  private readonly deleteTransaction;
  private readonly changes: SqliteChanges;
  private readonly checkpointer: BackgroundCheckpoints | undefined;
  /** Listing statements, prepared once per combination of filters. */
  private readonly listStatements = new Map<string, Database.Statement>();

  constructor(options: SqliteRunStoreOptions) {
    this.now = options.now ?? Date.now;
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    try {
      this.database = new Database(options.path);
      // Opening is synchronous (a constructor), so only here may SQLite wait for a lock itself.
      this.database.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
      this.database.pragma('journal_mode = WAL');
      this.database.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      migrate(this.database);
      if (options.checkpoints === 'background' && options.path !== ':memory:') {
        this.database.pragma('wal_autocheckpoint = 0');
        this.checkpointer = startBackgroundCheckpoints(options.path);
      }
      // From now on a locked database answers SQLITE_BUSY at once and `call` waits asynchronously.
      this.database.pragma('busy_timeout = 0');
    } catch (error) {
      throw new StoreFailureError(`Cannot open SQLite run store at ${options.path}.`, { cause: error });
    }
    this.opened = this.database.memory ? undefined : readFileIdentity(options.path);
    try {
      this.guard = this.opened ? new StoreFileGuard(options.path, this.opened) : undefined;
    } catch (error) {
      void this.checkpointer?.stop();
      this.database.close();
      throw error;
    }
    const database = this.database;
    this.statements = prepareStatements(database);
    this.changes = new SqliteChanges(database, this.opened);
    this.acquireTransaction = database.transaction((request: AcquireRequest): AcquireResult => {
      const now = this.now();
      const row = this.statements.getRun.get(request.runId);
      const decision = decideAcquire(row ? toRecord(row) : undefined, request, now);
      if (decision.outcome === 'created') {
        this.statements.insertRun.run({ ...decision.run, metadataText: JSON.stringify(decision.run.metadata) });
        this.insertEntries(request.runId, 1, 1, request.initialEntries, now);
      } else if (decision.outcome === 'acquired') {
        const run = decision.run;
        this.statements.takeOver.run(run.ownerId, run.epoch, run.leaseExpiresAt, run.updatedAt, run.runId);
      }
      return decision;
    });
    // Inserted unless there: a run id seen before is read back only then (a new run, the usual
    // case, costs no read first; the platform creates every run this way, issue 34).
    this.createTransaction = database.transaction((request: CreateRunRequest): { created: boolean; run: RunRecord } => {
      const now = this.now();
      const run = pendingRun(request, now);
      const inserted = this.statements.insertRunIfAbsent.run({ ...run, metadataText: JSON.stringify(run.metadata) });
      if (inserted.changes === 0) return { created: false, run: toRecord(this.statements.getRun.get(request.runId) as RunRow) };
      this.insertEntries(request.runId, 1, 1, request.entries, now);
      return { created: true, run };
    });
    this.deleteTransaction = database.transaction((runIds: readonly string[]): string[] => {
      const found = runIds.flatMap((runId) => {
        const row = this.statements.getRun.get(runId);
        return row && row.status !== 'deleted' ? [row] : [];
      });
      const unfinished = found.filter((row) => isUnfinished(row.status as StoredRunStatus)).map((row) => row.run_id);
      if (unfinished.length > 0) throw new RunNotFinishedError(unfinished, 'delete');
      const now = this.now();
      for (const row of found) {
        this.statements.deleteJournal.run(row.run_id);
        this.statements.tombstone.run(now, row.run_id);
      }
      return found.map((row) => row.run_id);
    });
    this.externalTransaction = database.transaction((request: ExternalAppendRequest): number => {
      const row = this.statements.fence.get(request.runId);
      if (!row || !isUnfinished(row.status as StoredRunStatus))
        throw new RunNotActiveError(request.runId, row?.status ?? 'unknown');
      const now = this.now();
      const last = this.insertEntries(request.runId, row.last_sequence + 1, 0, request.entries, now);
      this.statements.advance.run(last, 0, now, request.runId);
      return last;
    });
    this.appendTransaction = database.transaction((request: AppendRequest): number => {
      // BEGIN IMMEDIATE holds the write lock, so the epoch read here cannot change before commit:
      // a takeover (which needs the same lock) happens wholly before or wholly after this write.
      const row = this.statements.fence.get(request.runId);
      if (!row) throw new StaleEpochError(request.runId, request.epoch, 'the run does not exist');
      if (row.epoch !== request.epoch) throw new StaleEpochError(request.runId, request.epoch);
      if (row.status !== 'running') throw new StaleEpochError(request.runId, request.epoch, 'the run has ended');
      if (request.ifLastSequence !== undefined && row.last_sequence !== request.ifLastSequence) {
        throw new JournalMovedError(request.runId, request.ifLastSequence, row.last_sequence);
      }
      const through = request.checkpointThrough === undefined ? undefined : this.checkpointOf(request);
      const now = this.now();
      const last = this.insertEntries(request.runId, row.last_sequence + 1, request.epoch, request.entries, now);
      // Only a commit that changes the row writes it: a plain append leaves the run row's page
      // clean (one page per commit, not two); readers take its last sequence from the journal.
      if (request.terminal) {
        // The ending moves the row's last sequence and loops and closes it in one update.
        const result = request.terminal;
        const digest = request.digest === undefined ? null : JSON.stringify(request.digest);
        this.statements.finish.run(
          last,
          request.chargeLoops ?? 0,
          result.status,
          JSON.stringify(result),
          digest,
          now,
          request.runId,
        );
        if (through) this.statements.setCheckpoint.run(through.run_id, through.created_at, request.runId);
      } else if (request.chargeLoops) {
        this.statements.advance.run(last, request.chargeLoops, now, request.runId);
      }
      this.injectFault('append', 'before-commit');
      return last;
    });
  }

  async appendExternal(request: ExternalAppendRequest): Promise<{ lastSequence: number }> {
    assertIdentifier('runId', request.runId);
    const written = await this.write('appendExternal', () => ({ lastSequence: this.externalTransaction.immediate(request) }));
    this.changes.notify(request.runId, written.lastSequence);
    return written;
  }

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    assertAcquireRequest(request);
    const result = await this.write('acquire', () => this.acquireTransaction.immediate(request));
    if (result.outcome === 'created') this.changes.notify(request.runId, result.run.lastSequence);
    return result;
  }

  async createRun(request: CreateRunRequest): Promise<{ created: boolean; run: RunRecord }> {
    assertIdentifier('runId', request.runId);
    assertIdentifier('sessionId', request.sessionId);
    return this.write('createRun', () => this.createTransaction.immediate(request));
  }

  async renewLease(runId: string, epoch: number, leaseMs: number): Promise<{ leaseExpiresAt: number; lastSequence: number }> {
    assertIdentifier('runId', runId);
    return this.write('renewLease', () => {
      const now = this.now();
      const leaseExpiresAt = now + leaseMs;
      const renewed = this.statements.renew.get(leaseExpiresAt, now, runId, epoch);
      if (!renewed) throw new StaleEpochError(runId, epoch, 'the lease belongs to another owner or the run ended');
      return { leaseExpiresAt, lastSequence: renewed.last_sequence };
    });
  }

  append(request: AppendRequest): Promise<{ lastSequence: number }> {
    // Not an async function: the commit path settles with one promise (issue 34). The request is
    // checked inside the call, so that a refusal is a rejection like any other.
    // The owner's commit: the cheap check that the file still has a name (StoreFileGuard).
    return this.call(
      'append',
      () => {
        assertIdentifier('runId', request.runId);
        assertCheckpointThrough(request);
        const lastSequence = this.appendTransaction.immediate(request);
        this.changes.notify(request.runId, lastSequence);
        this.injectFault('append', 'after-commit');
        return { lastSequence };
      },
      'linked',
    );
  }

  async releaseLease(runId: string, epoch: number): Promise<void> {
    assertIdentifier('runId', runId);
    await this.write('releaseLease', () => this.statements.release.run(runId, epoch));
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    assertIdentifier('runId', runId);
    return this.call('getRun', () => {
      const row = this.statements.getRun.get(runId);
      return row ? toRecord(row) : undefined;
    });
  }

  async readJournal(runId: string, options: ReadJournalOptions = {}): Promise<JournalEntry[]> {
    assertReadJournal(runId, options);
    return this.call('readJournal', () =>
      this.statements.journal.all(options.limit ?? -1, runId, options.afterSequence ?? 0).map(toJournalEntry),
    );
  }

  /** `getRun` and `readJournal` in one call; the run first, so that a run read as ended comes with its final journal. */
  async readRunAndJournal(runId: string, options: ReadJournalOptions = {}) {
    assertReadJournal(runId, options);
    return this.call('readRunAndJournal', () => {
      const row = this.statements.getRun.get(runId);
      if (!row) return { run: undefined, entries: [] };
      const entries = this.statements.journal.all(options.limit ?? -1, runId, options.afterSequence ?? 0);
      return { run: toRecord(row), entries: entries.map(toJournalEntry) };
    });
  }

  async listSessionRuns(sessionId: string): Promise<RunRecord[]> {
    assertIdentifier('sessionId', sessionId);
    return this.call('listSessionRuns', () => this.statements.sessionRuns.all(sessionId).map(toRecord));
  }

  async readSession(request: ReadSessionRequest): Promise<SessionRunRead[]> {
    assertReadSession(request);
    return this.call('readSession', () => {
      const rows = this.statements.readSession.all(request.recentFinished ?? 0, {
        session: request.sessionId,
        kind: request.kind ?? null,
        except: request.exceptRunId ?? null,
        runs: JSON.stringify(request.journalsOf ?? []),
        checkpoint:
          request.afterCheckpoint === undefined ? null : request.afterCheckpoint === true ? '' : request.afterCheckpoint,
      });
      const reads: SessionRunRead[] = [];
      let current: SessionRunRead | undefined;
      for (const row of rows) {
        if (current?.run.runId !== row.run_id) {
          current = { run: toRecord(row) };
          if (row.digest !== null) current.digest = JSON.parse(row.digest);
          if (row.holds_checkpoint === 1) current.checkpoint = true;
          reads.push(current);
        }
        if (row.entry_sequence === null) continue;
        current.journal ??= [];
        current.journal.push(
          toJournalEntry({
            sequence: row.entry_sequence,
            epoch: row.entry_epoch as number,
            type: row.entry_type as string,
            task_id: row.entry_task_id,
            data: row.entry_data as string,
            at: row.entry_at as number,
          }),
        );
      }
      // A run without a digest has its journal read even when it is empty.
      for (const read of reads) if (read.digest === undefined) read.journal ??= [];
      return reads;
    });
  }

  async listRuns(query: RunListQuery): Promise<RunRecord[]> {
    const { sql, values } = runListQuery(query);
    return this.call('listRuns', () => {
      let statement = this.listStatements.get(sql);
      if (!statement) {
        statement = this.database.prepare(sql);
        this.listStatements.set(sql, statement);
      }
      return (statement.all(...values, query.limit) as RunRow[]).map(toRecord);
    });
  }

  async listSessions(query: SessionListQuery): Promise<SessionRecord[]> {
    const before = query.before;
    return this.call('listSessions', () =>
      this.statements.sessions
        .all(query.limit, before ? 1 : 0, before?.lastRunAt ?? 0, before?.sessionId ?? '')
        .map((row) => ({ sessionId: row.session_id, runs: row.runs, firstRunAt: row.first_run_at, lastRunAt: row.last_run_at })),
    );
  }

  async deleteRuns(runIds: readonly string[]): Promise<string[]> {
    for (const runId of runIds) assertIdentifier('runId', runId);
    const deleted = await this.write('deleteRuns', () => this.deleteTransaction.immediate(runIds));
    for (const runId of deleted) this.changes.notify(runId);
    return deleted;
  }

  /**
   * Wakes a follower after each write to `runId` (ADR 0025): at once for writes through any store
   * of this process on the same file, within `FOREIGN_WRITE_CHECK_MS` for other processes' writes.
   */
  watchRun(runId: string, listener: (through?: number) => void): () => void {
    return this.changes.watch(runId, listener);
  }

  /** Relays wake-ups to and from another process on the same file (`SqliteWriteRelay`, ADR 0048). */
  get relay(): SqliteWriteRelay {
    return this.changes;
  }

  async close(): Promise<void> {
    this.changes.close();
    this.guard?.close();
    await this.checkpointer?.stop();
    if (this.database.open) this.database.close();
  }

  /**
   * A test seam for fault injection (issue 18): called inside the append transaction just before
   * it commits and again just after. A subclass in a test throws a driver error here to simulate
   * a failed disk write (`before-commit`: nothing landed) or a failure reported after the commit
   * (`after-commit`: the write landed, the caller cannot know). Does nothing in production.
   */
  protected injectFault(_operation: 'append', _point: 'before-commit' | 'after-commit'): void {}

  /**
   * Runs one synchronous store operation that writes: as `call`, and first refuses a file that was
   * deleted or replaced under the store (issue 18, the full path check of `StoreFileGuard`), so
   * that no write lands in a file nobody else sees. The owner's commits make the cheaper check
   * (`append`); reads make none: a read of a replaced file lands nothing, and the owner's next
   * commit or lease renewal (within a third of its lease) stops the run.
   */
  private write<T>(operation: string, work: () => T): Promise<T> {
    return this.call(operation, work, 'path');
  }

  /**
   * Runs one synchronous store operation: refuses a closed store (and, for a write, a file that
   * was deleted or replaced), maps driver errors to `StoreFailureError`, and while another process
   * holds the lock waits with back-off on timers, so that the event loop never stalls on a lock.
   */
  private call<T>(operation: string, work: () => T, fileCheck: FileCheck = 'none'): Promise<T> {
    const turn = yieldIfTurnIsLong();
    if (turn) return turn.then(() => this.call(operation, work, fileCheck));
    // The first try runs at once and settles without an async frame (most calls find no lock
    // held: issue 34); only a busy lock goes on to the waits.
    const startedAt = Date.now();
    try {
      return Promise.resolve(this.attempt(operation, work, fileCheck));
    } catch (error) {
      if (!isSqliteBusy(error)) return Promise.reject(toSqliteStoreError(operation, error));
      return this.retryWhileBusy(operation, work, fileCheck, startedAt, error);
    }
  }

  /** One try of a store operation: refuses a closed store and, for a write, a changed file. */
  private attempt<T>(operation: string, work: () => T, fileCheck: FileCheck): T {
    if (!this.database.open) throw new StoreFailureError(`SqliteRunStore.${operation}: the store is closed.`);
    if (fileCheck === 'path') this.guard?.assertPath();
    else if (fileCheck === 'linked') this.guard?.assertLinked();
    return work();
  }

  /** Tries again while another process holds the lock (`waitForLock`), up to the busy timeout. */
  private async retryWhileBusy<T>(operation: string, work: () => T, check: FileCheck, startedAt: number, busy: unknown) {
    const refusedAt = performance.now();
    let last = busy;
    for (let wait = FIRST_LOCK_WAIT_MS; ; ) {
      if (Date.now() - startedAt + wait > this.busyTimeoutMs) throw toSqliteStoreError(operation, last);
      const spinning = performance.now() - refusedAt < LOCK_SPIN_MS;
      await waitForLock(refusedAt, wait);
      if (!spinning) wait = Math.min(LONGEST_LOCK_WAIT_MS, wait * 2);
      try {
        return this.attempt<T>(operation, work, check);
      } catch (error) {
        if (!isSqliteBusy(error)) throw toSqliteStoreError(operation, error);
        last = error;
      }
    }
  }

  /** The run a checkpoint covers through: an earlier run of the same session (ADR 0012), or refused. */
  private checkpointOf(request: AppendRequest): RunRow {
    const holder = this.statements.getRun.get(request.runId);
    const through = this.statements.getRun.get(request.checkpointThrough as string);
    if (!holder || !through || through.session_id !== holder.session_id || through.created_at >= holder.created_at) {
      throw notAnEarlierRun(request);
    }
    return through;
  }

  private insertEntries(
    runId: string,
    firstSequence: number,
    epoch: number,
    entries: readonly NewJournalEntry[],
    now: number,
  ): number {
    let sequence = firstSequence - 1;
    for (const entry of entries) {
      sequence += 1;
      this.statements.insertEntry.run(runId, sequence, epoch, entry.type, entry.taskId ?? null, JSON.stringify(entry.data), now);
    }
    return sequence;
  }
}
