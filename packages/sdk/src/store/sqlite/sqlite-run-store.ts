import Database from 'better-sqlite3';
import { RunNotActiveError, RunNotFinishedError, StaleEpochError, StoreFailureError } from '../../core/errors/index.js';
import type { RunResult } from '../../core/run-result.js';
import { DEFAULT_LABELS, decideAcquire, isUnfinished, pendingRun } from '../acquire-decision.js';
import type {
  AcquireRequest,
  AcquireResult,
  AppendRequest,
  CreateRunRequest,
  ExternalAppendRequest,
  JournalEntry,
  NewJournalEntry,
  RunKind,
  RunListQuery,
  RunRecord,
  RunStore,
  SessionListQuery,
  SessionRecord,
  StoredRunStatus,
} from '../run-store.js';
import { sqliteMigrations } from './migrations.js';

/** Options of `SqliteRunStore`. */
export interface SqliteRunStoreOptions {
  /** Path of the database file; created if missing. */
  path: string;
  /**
   * SQLite `synchronous` level. `normal` (default) survives any process crash, which is what a
   * run promises; `full` also survives a power cut, at the price of one fsync per commit.
   */
  synchronous?: 'normal' | 'full';
  /** How long a writer waits for another process's write lock, in milliseconds. Default 5000. */
  busyTimeoutMs?: number;
  /** Clock for leases; defaults to `Date.now`. */
  now?: () => number;
}

/** The last sequence of a run, read from the journal's primary key (no counter to keep in step). */
const LAST_SEQUENCE =
  '(SELECT COALESCE(MAX(sequence), 0) FROM agentloom_journal WHERE agentloom_journal.run_id = agentloom_runs.run_id)';

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
    try {
      this.database = new Database(options.path);
      this.database.pragma('journal_mode = WAL');
      this.database.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      this.database.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      migrate(this.database);
    } catch (error) {
      throw new StoreFailureError(`Cannot open SQLite run store at ${options.path}.`, { cause: error });
    }
    const database = this.database;
    this.statements = {
      getRun: database.prepare<[string], RunRow>(
        `SELECT *, ${LAST_SEQUENCE} AS last_sequence FROM agentloom_runs WHERE run_id = ?`,
      ),
      insertRun: database.prepare(
        `INSERT INTO agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at,
           loops_used, created_at, updated_at, result, kind, name, metadata)
         VALUES (@runId, @sessionId, @status, @ownerId, @epoch, @leaseExpiresAt, @deadlineAt,
           @loopsUsed, @createdAt, @updatedAt, NULL, @kind, @name, @metadataText)`,
      ),
      takeOver: database.prepare(
        `UPDATE agentloom_runs SET status = 'running', owner_id = ?, epoch = ?, lease_expires_at = ?, updated_at = ? WHERE run_id = ?`,
      ),
      insertEntry: database.prepare(
        `INSERT INTO agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      fence: database.prepare<[string], { epoch: number; status: string; last_sequence: number }>(
        `SELECT epoch, status, ${LAST_SEQUENCE} AS last_sequence FROM agentloom_runs WHERE run_id = ?`,
      ),
      charge: database.prepare('UPDATE agentloom_runs SET loops_used = loops_used + ?, updated_at = ? WHERE run_id = ?'),
      finish: database.prepare(
        `UPDATE agentloom_runs SET status = ?, result = ?, owner_id = NULL, lease_expires_at = 0, updated_at = ? WHERE run_id = ?`,
      ),
      renew: database.prepare<[number, number, string, number], { last_sequence: number }>(
        `UPDATE agentloom_runs SET lease_expires_at = ?, updated_at = ? WHERE run_id = ? AND epoch = ? AND status = 'running'
         RETURNING ${LAST_SEQUENCE} AS last_sequence`,
      ),
      tombstone: database.prepare(
        `UPDATE agentloom_runs SET status = 'deleted', result = NULL, owner_id = NULL, lease_expires_at = 0, updated_at = ? WHERE run_id = ?`,
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
      journal: database.prepare<[string, number], JournalRow>(
        'SELECT sequence, epoch, type, task_id, data, at FROM agentloom_journal WHERE run_id = ? AND sequence > ? ORDER BY sequence',
      ),
      sessionRuns: database.prepare<[string], RunRow>(
        `SELECT *, ${LAST_SEQUENCE} AS last_sequence FROM agentloom_runs WHERE session_id = ? AND status <> 'deleted' ORDER BY created_at, rowid`,
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
      return this.insertEntries(request.runId, row.last_sequence + 1, 0, request.entries, this.now());
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
      if (request.chargeLoops) this.statements.charge.run(request.chargeLoops, now, request.runId);
      if (request.terminal) {
        const result = request.terminal;
        this.statements.finish.run(result.status, JSON.stringify(result), now, request.runId);
      }
      return last;
    });
  }

  async appendExternal(request: ExternalAppendRequest): Promise<{ lastSequence: number }> {
    return { lastSequence: this.externalTransaction.immediate(request) };
  }

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    return this.acquireTransaction.immediate(request);
  }

  async createRun(request: CreateRunRequest): Promise<{ created: boolean; run: RunRecord }> {
    return this.createTransaction.immediate(request);
  }

  async renewLease(runId: string, epoch: number, leaseMs: number): Promise<{ leaseExpiresAt: number; lastSequence: number }> {
    const now = this.now();
    const leaseExpiresAt = now + leaseMs;
    const renewed = this.statements.renew.get(leaseExpiresAt, now, runId, epoch);
    if (!renewed) throw new StaleEpochError(runId, epoch, 'the lease belongs to another owner or the run ended');
    return { leaseExpiresAt, lastSequence: renewed.last_sequence };
  }

  async append(request: AppendRequest): Promise<{ lastSequence: number }> {
    return { lastSequence: this.appendTransaction.immediate(request) };
  }

  async releaseLease(runId: string, epoch: number): Promise<void> {
    this.statements.release.run(runId, epoch);
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const row = this.statements.getRun.get(runId);
    return row ? toRecord(row) : undefined;
  }

  async readJournal(runId: string, options: { afterSequence?: number } = {}): Promise<JournalEntry[]> {
    return this.statements.journal.all(runId, options.afterSequence ?? 0).map((row) => {
      const entry: JournalEntry = {
        sequence: row.sequence,
        epoch: row.epoch,
        type: row.type,
        data: JSON.parse(row.data),
        at: row.at,
      };
      if (row.task_id !== null) entry.taskId = row.task_id;
      return entry;
    });
  }

  async listSessionRuns(sessionId: string): Promise<RunRecord[]> {
    return this.statements.sessionRuns.all(sessionId).map(toRecord);
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
    const sql = `SELECT *, ${LAST_SEQUENCE} AS last_sequence FROM agentloom_runs WHERE ${conditions.join(' AND ')}
      ORDER BY created_at DESC, run_id DESC LIMIT ?`;
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    return (statement.all(...values, query.limit) as RunRow[]).map(toRecord);
  }

  async listSessions(query: SessionListQuery): Promise<SessionRecord[]> {
    const before = query.before;
    return this.statements.sessions
      .all(before ? 1 : 0, before?.lastRunAt ?? 0, before?.sessionId ?? '', query.limit)
      .map((row) => ({ sessionId: row.session_id, runs: row.runs, firstRunAt: row.first_run_at, lastRunAt: row.last_run_at }));
  }

  async deleteRuns(runIds: readonly string[]): Promise<string[]> {
    return this.deleteTransaction.immediate(runIds);
  }

  async close(): Promise<void> {
    if (this.database.open) this.database.close();
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
