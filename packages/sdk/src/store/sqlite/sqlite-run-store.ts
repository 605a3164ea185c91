import Database from 'better-sqlite3';
import { RunNotActiveError, RunNotFinishedError, StaleEpochError, StoreFailureError } from '../../core/errors/index.js';
import { assertIdentifier } from '../../core/ids.js';
import type { RunResult } from '../../core/run-result.js';
import { DEFAULT_LABELS, decideAcquire, isUnfinished, pendingRun } from '../acquire-decision.js';
import { assertAcquireRequest, assertReadJournal, assertReadSession } from '../request-validation.js';
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
  RunKind,
  RunListQuery,
  RunRecord,
  RunStore,
  SessionListQuery,
  SessionRecord,
  SessionRunRead,
  StoredRunStatus,
} from '../run-store.js';
import { assertSameFile, type FileIdentity, readFileIdentity } from './file-identity.js';
import { sqliteMigrations } from './migrations.js';
import { isSqliteBusy, toSqliteStoreError } from './sqlite-errors.js';

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
   * wait never blocks the event loop: the lock is tried again with back-off between tries, and a
   * call that is still locked out after this long fails with a transient `StoreFailureError`.
   */
  busyTimeoutMs?: number;
  /** Clock for leases; defaults to `Date.now`. */
  now?: () => number;
}

/** First wait for a lock held by another process, in milliseconds; doubled up to `LONGEST_LOCK_WAIT_MS`. */
const FIRST_LOCK_WAIT_MS = 2;
const LONGEST_LOCK_WAIT_MS = 100;

interface RunRow {
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
}

/** A row of `readSession`: a run, and one entry of its journal when its journal was asked for. */
interface SessionReadRow extends RunRow {
  entry_sequence: number | null;
  entry_epoch: number | null;
  entry_type: string | null;
  entry_task_id: string | null;
  entry_data: string | null;
  entry_at: number | null;
}

/** The named parameters of the `readSession` statement. */
interface SessionReadParameters {
  session: string;
  kind: string | null;
  except: string | null;
  recent: number;
  runs: string;
}

interface SessionRow {
  session_id: string;
  runs: number;
  first_run_at: number;
  last_run_at: number;
}

interface JournalRow {
  sequence: number;
  epoch: number;
  type: string;
  task_id: string | null;
  data: string;
  at: number;
}

/**
 * The embedded default `RunStore`: one SQLite file in WAL mode, shared safely by several
 * processes on one machine. Every append is one `BEGIN IMMEDIATE` transaction that checks the
 * writer's epoch before it writes, so a stale owner can never interleave with the new one.
 */
export class SqliteRunStore implements RunStore {
  private readonly database: Database.Database;
  private readonly path: string;
  private readonly opened: FileIdentity | undefined;
  private readonly busyTimeoutMs: number;
  private readonly now: () => number;
  private readonly statements;
  private readonly appendTransaction;
  private readonly acquireTransaction;
  private readonly externalTransaction;
  private readonly createTransaction;
  private readonly deleteTransaction;
  /** Listing statements, prepared once per combination of filters. */
  private readonly listStatements = new Map<string, Database.Statement>();

  constructor(options: SqliteRunStoreOptions) {
    this.now = options.now ?? Date.now;
    this.path = options.path;
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    try {
      this.database = new Database(options.path);
      // Opening is synchronous (a constructor), so only here may SQLite wait for a lock itself.
      this.database.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
      this.database.pragma('journal_mode = WAL');
      this.database.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      migrate(this.database);
      // From now on a locked database answers SQLITE_BUSY at once and `call` waits asynchronously.
      this.database.pragma('busy_timeout = 0');
    } catch (error) {
      throw new StoreFailureError(`Cannot open SQLite run store at ${options.path}.`, { cause: error });
    }
    this.opened = this.database.memory ? undefined : readFileIdentity(options.path);
    const database = this.database;
    this.statements = {
      getRun: database.prepare<[string], RunRow>('SELECT * FROM agentloom_runs WHERE run_id = ?'),
      insertRun: database.prepare(
        `INSERT INTO agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at,
           loops_used, last_sequence, created_at, updated_at, result, kind, name, metadata)
         VALUES (@runId, @sessionId, @status, @ownerId, @epoch, @leaseExpiresAt, @deadlineAt,
           @loopsUsed, @lastSequence, @createdAt, @updatedAt, NULL, @kind, @name, @metadataText)`,
      ),
      takeOver: database.prepare(
        `UPDATE agentloom_runs SET status = 'running', owner_id = ?, epoch = ?, lease_expires_at = ?, updated_at = ? WHERE run_id = ?`,
      ),
      insertEntry: database.prepare(
        `INSERT INTO agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      fence: database.prepare<[string], { epoch: number; status: string; last_sequence: number }>(
        'SELECT epoch, status, last_sequence FROM agentloom_runs WHERE run_id = ?',
      ),
      advance: database.prepare(
        'UPDATE agentloom_runs SET last_sequence = ?, loops_used = loops_used + ?, updated_at = ? WHERE run_id = ?',
      ),
      finish: database.prepare(
        `UPDATE agentloom_runs SET status = ?, result = ?, digest = ?, owner_id = NULL, lease_expires_at = 0, updated_at = ? WHERE run_id = ?`,
      ),
      renew: database.prepare<[number, number, string, number], { last_sequence: number }>(
        `UPDATE agentloom_runs SET lease_expires_at = ?, updated_at = ? WHERE run_id = ? AND epoch = ? AND status = 'running'
         RETURNING last_sequence`,
      ),
      tombstone: database.prepare(
        `UPDATE agentloom_runs SET status = 'deleted', result = NULL, digest = NULL, owner_id = NULL, lease_expires_at = 0, updated_at = ? WHERE run_id = ?`,
      ),
      deleteJournal: database.prepare('DELETE FROM agentloom_journal WHERE run_id = ?'),
      sessions: database.prepare<[number, number, string, number], SessionRow>(
        `SELECT session_id, runs, first_run_at, last_run_at FROM agentloom_sessions
         WHERE ? = 0 OR (last_run_at, session_id) < (?, ?)
         ORDER BY last_run_at DESC, session_id DESC LIMIT ?`,
      ),
      release: database.prepare(
        `UPDATE agentloom_runs SET owner_id = NULL, lease_expires_at = 0 WHERE run_id = ? AND epoch = ? AND status = 'running'`,
      ),
      journal: database.prepare<[string, number, number], JournalRow>(
        'SELECT sequence, epoch, type, task_id, data, at FROM agentloom_journal WHERE run_id = ? AND sequence > ? ORDER BY sequence LIMIT ?',
      ),
      // One statement for a whole session (issue 18): the runs in order, the journal joined only
      // for the runs whose journal is wanted — read first by primary key (`wanted`, materialised),
      // so that no other run's entries are visited. The last sequence is the stored column, never a
      // MAX(sequence) per run over the WITHOUT ROWID journal.
      readSession: database.prepare<[SessionReadParameters], SessionReadRow>(
        `WITH session AS (
           SELECT rowid AS position, * FROM agentloom_runs
           WHERE session_id = @session AND status <> 'deleted' AND (@kind IS NULL OR kind = @kind) AND (@except IS NULL OR run_id <> @except)
         ), chosen AS (
           SELECT run_id FROM (
             SELECT run_id FROM agentloom_runs
             WHERE session_id = @session AND status NOT IN ('pending', 'running', 'deleted')
               AND (@kind IS NULL OR kind = @kind) AND (@except IS NULL OR run_id <> @except)
             ORDER BY created_at DESC, rowid DESC LIMIT @recent)
           UNION SELECT value FROM json_each(@runs)
           UNION SELECT run_id FROM session WHERE digest IS NULL
         ), wanted AS MATERIALIZED (
           SELECT entry.* FROM chosen JOIN agentloom_journal AS entry ON entry.run_id = chosen.run_id
         )
         SELECT run.*, entry.sequence AS entry_sequence, entry.epoch AS entry_epoch, entry.type AS entry_type,
           entry.task_id AS entry_task_id, entry.data AS entry_data, entry.at AS entry_at
         FROM session AS run
         LEFT JOIN wanted AS entry ON entry.run_id = run.run_id
         ORDER BY run.created_at, run.position, entry.sequence`,
      ),
      sessionRuns: database.prepare<[string], RunRow>(
        `SELECT * FROM agentloom_runs WHERE session_id = ? AND status <> 'deleted' ORDER BY created_at, rowid`,
      ),
    };
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
    this.createTransaction = database.transaction((request: CreateRunRequest): { created: boolean; run: RunRecord } => {
      const row = this.statements.getRun.get(request.runId);
      if (row) return { created: false, run: toRecord(row) };
      const now = this.now();
      const run = pendingRun(request, now);
      this.statements.insertRun.run({ ...run, metadataText: JSON.stringify(run.metadata) });
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
      const now = this.now();
      const last = this.insertEntries(request.runId, row.last_sequence + 1, request.epoch, request.entries, now);
      this.statements.advance.run(last, request.chargeLoops ?? 0, now, request.runId);
      if (request.terminal) {
        const result = request.terminal;
        const digest = request.digest === undefined ? null : JSON.stringify(request.digest);
        this.statements.finish.run(result.status, JSON.stringify(result), digest, now, request.runId);
      }
      this.injectFault('append', 'before-commit');
      return last;
    });
  }

  async appendExternal(request: ExternalAppendRequest): Promise<{ lastSequence: number }> {
    assertIdentifier('runId', request.runId);
    return this.call('appendExternal', () => ({ lastSequence: this.externalTransaction.immediate(request) }));
  }

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    assertAcquireRequest(request);
    return this.call('acquire', () => this.acquireTransaction.immediate(request));
  }

  async createRun(request: CreateRunRequest): Promise<{ created: boolean; run: RunRecord }> {
    assertIdentifier('runId', request.runId);
    assertIdentifier('sessionId', request.sessionId);
    return this.call('createRun', () => this.createTransaction.immediate(request));
  }

  async renewLease(runId: string, epoch: number, leaseMs: number): Promise<{ leaseExpiresAt: number; lastSequence: number }> {
    assertIdentifier('runId', runId);
    return this.call('renewLease', () => {
      const now = this.now();
      const leaseExpiresAt = now + leaseMs;
      const renewed = this.statements.renew.get(leaseExpiresAt, now, runId, epoch);
      if (!renewed) throw new StaleEpochError(runId, epoch, 'the lease belongs to another owner or the run ended');
      return { leaseExpiresAt, lastSequence: renewed.last_sequence };
    });
  }

  async append(request: AppendRequest): Promise<{ lastSequence: number }> {
    assertIdentifier('runId', request.runId);
    return this.call('append', () => {
      const lastSequence = this.appendTransaction.immediate(request);
      this.injectFault('append', 'after-commit');
      return { lastSequence };
    });
  }

  async releaseLease(runId: string, epoch: number): Promise<void> {
    assertIdentifier('runId', runId);
    await this.call('releaseLease', () => this.statements.release.run(runId, epoch));
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
      this.statements.journal.all(runId, options.afterSequence ?? 0, options.limit ?? -1).map((row) => {
        const entry: JournalEntry = {
          sequence: row.sequence,
          epoch: row.epoch,
          type: row.type,
          data: JSON.parse(row.data),
          at: row.at,
        };
        if (row.task_id !== null) entry.taskId = row.task_id;
        return entry;
      }),
    );
  }

  async listSessionRuns(sessionId: string): Promise<RunRecord[]> {
    assertIdentifier('sessionId', sessionId);
    return this.call('listSessionRuns', () => this.statements.sessionRuns.all(sessionId).map(toRecord));
  }

  async readSession(request: ReadSessionRequest): Promise<SessionRunRead[]> {
    assertReadSession(request);
    return this.call('readSession', () => {
      const rows = this.statements.readSession.all({
        session: request.sessionId,
        kind: request.kind ?? null,
        except: request.exceptRunId ?? null,
        recent: request.recentFinished ?? 0,
        runs: JSON.stringify(request.journalsOf ?? []),
      });
      const reads: SessionRunRead[] = [];
      let current: SessionRunRead | undefined;
      for (const row of rows) {
        if (current?.run.runId !== row.run_id) {
          current = { run: toRecord(row) };
          if (row.digest !== null) current.digest = JSON.parse(row.digest);
          reads.push(current);
        }
        if (row.entry_sequence === null) continue;
        const entry: JournalEntry = {
          sequence: row.entry_sequence,
          epoch: row.entry_epoch as number,
          type: row.entry_type as string,
          data: JSON.parse(row.entry_data as string),
          at: row.entry_at as number,
        };
        if (row.entry_task_id !== null) entry.taskId = row.entry_task_id;
        current.journal ??= [];
        current.journal.push(entry);
      }
      // A run without a digest has its journal read even when it is empty.
      for (const read of reads) if (read.digest === undefined) read.journal ??= [];
      return reads;
    });
  }

  async listRuns(query: RunListQuery): Promise<RunRecord[]> {
    const conditions = ["status <> 'deleted'"];
    const values: Array<string | number> = [];
    if (query.sessionId !== undefined) {
      conditions.push('session_id = ?');
      values.push(query.sessionId);
    }
    if (query.kind !== undefined) {
      conditions.push('kind = ?');
      values.push(query.kind);
    }
    if (query.status !== undefined) {
      conditions.push('status = ?');
      values.push(query.status);
    }
    for (const [key, value] of Object.entries(query.metadata ?? {})) {
      // A plain key is read by path (fast); any other key is matched through json_each (exact).
      if (/^[A-Za-z0-9_-]{1,128}$/.test(key)) {
        conditions.push('json_extract(metadata, ?) = ?');
        values.push(`$."${key}"`, value);
      } else {
        conditions.push('EXISTS (SELECT 1 FROM json_each(metadata) WHERE json_each.key = ? AND json_each.value = ?)');
        values.push(key, value);
      }
    }
    if (query.before) {
      // A row value, so that the (created_at, run_id) index seeks straight to the position.
      conditions.push('(created_at, run_id) < (?, ?)');
      values.push(query.before.createdAt, query.before.runId);
    }
    const sql = `SELECT * FROM agentloom_runs WHERE ${conditions.join(' AND ')} ORDER BY created_at DESC, run_id DESC LIMIT ?`;
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
        .all(before ? 1 : 0, before?.lastRunAt ?? 0, before?.sessionId ?? '', query.limit)
        .map((row) => ({ sessionId: row.session_id, runs: row.runs, firstRunAt: row.first_run_at, lastRunAt: row.last_run_at })),
    );
  }

  async deleteRuns(runIds: readonly string[]): Promise<string[]> {
    for (const runId of runIds) assertIdentifier('runId', runId);
    return this.call('deleteRuns', () => this.deleteTransaction.immediate(runIds));
  }

  async close(): Promise<void> {
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
   * Runs one synchronous store operation: refuses a closed store and a file that was deleted or
   * replaced, maps driver errors to `StoreFailureError`, and while another process holds the lock
   * waits with back-off on timers, so that the event loop never stalls on a lock.
   */
  private async call<T>(operation: string, work: () => T): Promise<T> {
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt += 1) {
      if (!this.database.open) throw new StoreFailureError(`SqliteRunStore.${operation}: the store is closed.`);
      if (this.opened) assertSameFile(this.path, this.opened);
      try {
        return work();
      } catch (error) {
        const wait = Math.min(LONGEST_LOCK_WAIT_MS, FIRST_LOCK_WAIT_MS * 2 ** Math.min(attempt, 10));
        if (!isSqliteBusy(error) || Date.now() - startedAt + wait > this.busyTimeoutMs) {
          throw toSqliteStoreError(operation, error);
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
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

function migrate(database: Database.Database): void {
  // An up-to-date file needs no write lock: opening a store never waits for a busy writer then.
  const schemaTable = database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agentloom_schema'").get();
  if (schemaTable) {
    const version = database.prepare<[], { version: number }>('SELECT version FROM agentloom_schema').get()?.version;
    if (version === sqliteMigrations.length) return;
  }
  database.exec('CREATE TABLE IF NOT EXISTS agentloom_schema (version INTEGER NOT NULL) STRICT');
  const apply = database.transaction(() => {
    const row = database.prepare<[], { version: number }>('SELECT version FROM agentloom_schema').get();
    const current = row?.version ?? 0;
    if (current > sqliteMigrations.length) {
      throw new StoreFailureError(`SQLite run store schema ${current} is newer than this SDK supports.`);
    }
    for (let version = current; version < sqliteMigrations.length; version += 1) {
      database.exec(sqliteMigrations[version] as string);
    }
    if (row) database.prepare('UPDATE agentloom_schema SET version = ?').run(sqliteMigrations.length);
    else database.prepare('INSERT INTO agentloom_schema (version) VALUES (?)').run(sqliteMigrations.length);
  });
  apply.immediate();
}

function toRecord(row: RunRow): RunRecord {
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
