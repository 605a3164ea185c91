import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  InvalidConfigurationError,
  JournalMovedError,
  RunNotActiveError,
  RunNotFinishedError,
  StaleEpochError,
  StoreFailureError,
} from '../../core/errors/index.js';
import { assertIdentifier } from '../../core/ids.js';
import { decideAcquire, isUnfinished } from '../acquire-decision.js';
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
import { PostgresChanges } from './postgres-changes.js';
import { toPostgresStoreError } from './postgres-errors.js';
import { type PostgresRunStoreOptions, type PostgresRunStoreSettings, validatePostgresOptions } from './postgres-options.js';
import {
  type JournalRow,
  parseJournalRow,
  type RunAndEntryRow,
  type RunRow,
  type SessionReadRow,
  toRunAndEntries,
  toRunRecord,
  toSessionReads,
} from './postgres-rows.js';
import { migratePostgresSchema } from './postgres-setup.js';
import { listRunsQuery, type PostgresStatements, postgresStatements } from './postgres-statements.js';

/** A losing creator needs one more try; more means the row keeps vanishing (someone deletes it). */
const CREATE_ATTEMPTS = 3;

/**
 * The `RunStore` for many machines: every run lives in one PostgreSQL database and any worker can
 * take over a dead worker's run (P-5). Call `setup()` once before use (or create the store with
 * `fromConnectionString`, which does).
 *
 * Ownership follows `decideAcquire` inside a short transaction that locks the run's row; leases
 * are measured on the database's clock. Every append is a single statement whose conditional
 * UPDATE checks the writer's epoch, so a stale owner's write fails with `StaleEpochError` and
 * writes nothing, and no transaction stays open between round trips. Entries are serialised
 * before a connection is taken.
 *
 * @example
 * const store = await PostgresRunStore.fromConnectionString(process.env.DATABASE_URL ?? '', { schema: 'agentloom' });
 * const agent = new Agent({ ..., store });
 */
export class PostgresRunStore implements RunStore {
  /** The schema holding the store's tables. */
  readonly schema: string;
  /** Names this store's prepared statements: they are per connection and per text, and the schema is part of the text. */
  private readonly statementSuffix: string;
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly statements: PostgresStatements;
  private readonly idleTransactionTimeoutMs: number;
  private readonly changes: PostgresChanges;
  private closed = false;

  constructor(options: PostgresRunStoreOptions) {
    const issues = validatePostgresOptions(options);
    if (issues.length > 0) throw new InvalidConfigurationError('PostgresRunStore', issues);
    this.schema = options.schema ?? 'public';
    this.statementSuffix = createHash('sha1').update(this.schema).digest('hex').slice(0, 16);
    this.idleTransactionTimeoutMs = options.idleTransactionTimeoutMs ?? 10_000;
    const channel = `agentloom_changes_${createHash('sha1').update(this.schema).digest('hex').slice(0, 16)}`;
    this.statements = postgresStatements(pg.escapeIdentifier(this.schema), channel);
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      // A bounded connect: a renewal against an unreachable server fails (and the run's lease
      // logic takes over) instead of waiting forever.
      this.pool = new pg.Pool({
        connectionString: options.connectionString,
        max: options.poolSize ?? 10,
        connectionTimeoutMillis: 10_000,
        keepAlive: true,
        // A server that stops answering (frozen, partitioned) fails the call instead of hanging
        // it; the engine bounds its own calls by the run's lease as well.
        query_timeout: options.queryTimeoutMs ?? 10_000,
      });
      this.ownsPool = true;
      // An idle connection that the server closes is dropped by the pool; without a listener the
      // pool's 'error' event would crash the process.
      this.pool.on('error', () => {});
      // A connection the server ends in the middle of a pooled query can report the end twice;
      // the pool listens only once, so the second report would crash the process. The failure
      // itself reaches the caller through the query; this listener only keeps the process alive.
      this.pool.on('connect', (client) => client.on('error', () => {}));
    }
    this.changes = new PostgresChanges(this.pool, channel);
  }

  /** Creates a store on its own pool and runs `setup()`, so that it is ready to use. */
  static async fromConnectionString(
    connectionString: string,
    settings: PostgresRunStoreSettings = {},
  ): Promise<PostgresRunStore> {
    const store = new PostgresRunStore({ ...settings, connectionString });
    try {
      await store.setup();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /**
   * Creates the schema and applies the migrations it lacks (`postgresMigrations`, position =
   * version) in one transaction under an advisory lock: safe to call from many processes at once,
   * and again on every start. Throws `StoreFailureError` for a schema written by a newer SDK.
   */
  async setup(): Promise<void> {
    await this.run('setup', () => this.transaction((client) => migratePostgresSchema(client, this.schema)));
  }

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    assertAcquireRequest(request);
    const initial = serializeEntries(request.initialEntries);
    return this.run('acquire', async () => {
      // Nothing to create: a run that exists (a host created it, or its owner died) whose lease
      // is free is taken in one statement, without the locking transaction's four round trips.
      if (initial[0].length === 0) {
        const values = [request.runId, request.ownerId, request.leaseMs, request.sessionId];
        if (request.withJournal) {
          const taken = await this.pool.query<RunAndEntryRow>(this.prepared('takeOverFreeWithJournal', values));
          const { run, entries } = toRunAndEntries(request.runId, taken.rows);
          // The journal is read on the statement's snapshot, the row after waiting for its lock:
          // a write that committed in between shows in the row only. Then the owner reads it.
          if (run)
            return entries.length === run.lastSequence
              ? { outcome: 'acquired', run, journal: entries }
              : { outcome: 'acquired', run };
        } else {
          const taken = await this.pool.query<RunRow>(this.prepared('takeOverFree', values));
          if (taken.rows[0]) return { outcome: 'acquired', run: toRunRecord(taken.rows[0]) };
        }
      }
      // A creation that loses the race to a concurrent creator finds the row on its next try.
      for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt += 1) {
        const decision = await this.transaction(async (client) => {
          const locked = await client.query<RunRow & { now: string }>(this.prepared('lockRun', [request.runId]));
          const row = locked.rows[0];
          // No row to lock (a creation): the clock is read on its own.
          const now = Number(row ? row.now : (await client.query<{ now: string }>(this.statements.readClock)).rows[0]?.now);
          const current = row ? toRunRecord(row) : undefined;
          const decided = decideAcquire(current, request, now);
          const run = decided.run;
          if (decided.outcome === 'created') {
            const created = await client.query(
              this.prepared('createRun', [
                run.runId,
                run.epoch,
                ...initial,
                run.sessionId,
                run.status,
                run.ownerId,
                run.leaseExpiresAt,
                run.deadlineAt,
                run.loopsUsed,
                run.lastSequence,
                now,
                run.kind,
                run.name,
                JSON.stringify(run.metadata),
              ]),
            );
            if (created.rowCount === 0) return undefined;
          } else if (decided.outcome === 'acquired') {
            await client.query(this.prepared('takeOver', [run.runId, run.ownerId, run.epoch, run.leaseExpiresAt, run.updatedAt]));
          }
          return decided;
        });
        if (decision) return decision;
      }
      throw new StoreFailureError(`Run ${request.runId}: neither created nor found after ${CREATE_ATTEMPTS} attempts.`);
    });
  }

  async createRun(request: CreateRunRequest): Promise<{ created: boolean; run: RunRecord }> {
    assertIdentifier('runId', request.runId);
    assertIdentifier('sessionId', request.sessionId);
    const entries = serializeEntries(request.entries);
    const { kind, name, metadata } = request.labels;
    return this.run('createRun', async () => {
      const written = await this.pool.query<RunRow & { created: boolean }>(
        this.prepared('createPending', [
          request.runId,
          1,
          ...entries,
          request.sessionId,
          request.entries.length,
          kind,
          name,
          JSON.stringify(metadata),
        ]),
      );
      const answered = written.rows[0];
      if (answered) return { created: answered.created, run: toRunRecord(answered) };
      // Another creator's row, committed after this statement's snapshot: read it now.
      const found = await this.pool.query<RunRow>(this.prepared('getRun', [request.runId]));
      const row = found.rows[0];
      if (!row) throw new StoreFailureError(`Run ${request.runId}: neither created nor found.`);
      return { created: false, run: toRunRecord(row) };
    });
  }

  async renewLease(runId: string, epoch: number, leaseMs: number): Promise<{ leaseExpiresAt: number; lastSequence: number }> {
    assertIdentifier('runId', runId);
    return this.run('renewLease', async () => {
      const renewed = await this.pool.query<{ lease_expires_at: string; last_sequence: number }>(
        this.prepared('renew', [runId, epoch, leaseMs]),
      );
      const row = renewed.rows[0];
      if (!row) throw new StaleEpochError(runId, epoch, 'the lease belongs to another owner or the run ended');
      return { leaseExpiresAt: Number(row.lease_expires_at), lastSequence: Number(row.last_sequence) };
    });
  }

  async append(request: AppendRequest): Promise<{ lastSequence: number }> {
    assertIdentifier('runId', request.runId);
    assertCheckpointThrough(request);
    const entries = serializeEntries(request.entries);
    const terminal = request.terminal;
    // A checkpoint's covered run is checked first (rare: one append in many runs); creation times
    // and sessions never change, so the check cannot go stale before the append.
    const checkpointAt =
      request.checkpointThrough === undefined
        ? null
        : await this.run('append', async () => {
            const found = await this.pool.query<{ created_at: string }>(this.statements.checkpointThrough, [
              request.runId,
              request.checkpointThrough,
            ]);
            const row = found.rows[0];
            if (!row) throw notAnEarlierRun(request);
            return Number(row.created_at);
          });
    const values = [
      request.runId,
      request.epoch,
      ...entries,
      request.entries.length,
      request.chargeLoops ?? 0,
      terminal ? terminal.status : null,
      terminal ? JSON.stringify(terminal) : null,
      terminal && request.digest !== undefined ? JSON.stringify(request.digest) : null,
      request.checkpointThrough ?? null,
      checkpointAt,
      request.ifLastSequence ?? null,
    ];
    return this.run('append', async () => {
      // A named (prepared) statement: parsed and planned once per connection, which halves the
      // cost of the commit every durable step makes.
      const written = await this.pool.query<{ last_sequence: number }>({
        ...this.prepared('append', values),
      });
      const row = written.rows[0];
      if (row) return { lastSequence: row.last_sequence };
      const state = await this.pool.query<{ epoch: number; status: string; last_sequence: number }>(this.statements.fenceState, [
        request.runId,
      ]);
      const current = state.rows[0];
      if (!current) throw new StaleEpochError(request.runId, request.epoch, 'the run does not exist');
      if (current.epoch !== request.epoch) throw new StaleEpochError(request.runId, request.epoch);
      if (current.status !== 'running' || request.ifLastSequence === undefined) {
        throw new StaleEpochError(request.runId, request.epoch, 'the run has ended');
      }
      // The fence held, so the journal had moved past the sequence the writer named.
      throw new JournalMovedError(request.runId, request.ifLastSequence as number, Number(current.last_sequence));
    });
  }

  async appendExternal(request: ExternalAppendRequest): Promise<{ lastSequence: number }> {
    assertIdentifier('runId', request.runId);
    const values = [request.runId, 0, ...serializeEntries(request.entries), request.entries.length];
    return this.run('appendExternal', async () => {
      const written = await this.pool.query<{ last_sequence: number }>(this.statements.appendExternal, values);
      const row = written.rows[0];
      if (row) return { lastSequence: row.last_sequence };
      const state = await this.pool.query<{ status: string }>(this.statements.fenceState, [request.runId]);
      throw new RunNotActiveError(request.runId, state.rows[0]?.status ?? 'unknown');
    });
  }

  async releaseLease(runId: string, epoch: number): Promise<void> {
    assertIdentifier('runId', runId);
    await this.run('releaseLease', () => this.pool.query(this.prepared('release', [runId, epoch])));
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    assertIdentifier('runId', runId);
    return this.run('getRun', async () => {
      const found = await this.pool.query<RunRow>(this.prepared('getRun', [runId]));
      return found.rows[0] ? toRunRecord(found.rows[0]) : undefined;
    });
  }

  async readJournal(runId: string, options: ReadJournalOptions = {}): Promise<JournalEntry[]> {
    assertReadJournal(runId, options);
    return this.run('readJournal', async () => {
      const found = await this.pool.query<JournalRow>(
        this.prepared('readJournal', [runId, options.afterSequence ?? 0, options.limit ?? null]),
      );
      return found.rows.map((row) => parseJournalRow(runId, row));
    });
  }

  async readRunAndJournal(
    runId: string,
    options: ReadJournalOptions = {},
  ): Promise<{ run: RunRecord | undefined; entries: JournalEntry[] }> {
    assertReadJournal(runId, options);
    return this.run('readRunAndJournal', async () => {
      const found = await this.pool.query<RunAndEntryRow>(
        this.prepared('readRunAndJournal', [runId, options.afterSequence ?? 0, options.limit ?? null]),
      );
      return toRunAndEntries(runId, found.rows);
    });
  }

  async listSessionRuns(sessionId: string): Promise<RunRecord[]> {
    assertIdentifier('sessionId', sessionId);
    return this.run('listSessionRuns', async () => {
      const found = await this.pool.query<RunRow>(this.statements.sessionRuns, [sessionId]);
      return found.rows.map(toRunRecord);
    });
  }

  /**
   * The session read is a named (prepared) statement on each connection (issue 34): parsing and
   * planning its CTEs took several times its execution on every new run, a session's first
   * included. Named per schema, like the append. PostgreSQL still planned it anew on every call
   * (about 0.75 ms, 15 times its execution for a new session): its cost model preferred custom
   * plans. The statement is built for the generic plan (one primary-key range per chosen run
   * whatever the estimates), so its transaction asks for that plan, kept by the connection.
   */
  async readSession(request: ReadSessionRequest): Promise<SessionRunRead[]> {
    assertReadSession(request);
    return this.run('readSession', () =>
      this.transaction(async (client) => {
        const found = await client.query<SessionReadRow>({
          ...this.prepared('readSession', []),
          values: [
            request.sessionId,
            request.kind ?? null,
            request.exceptRunId ?? null,
            request.recentFinished ?? 0,
            [...(request.journalsOf ?? [])],
            request.afterCheckpoint === undefined ? null : request.afterCheckpoint === true ? '' : request.afterCheckpoint,
          ],
        });
        return toSessionReads(found.rows);
      }, 'SET LOCAL plan_cache_mode = force_generic_plan'),
    );
  }

  async listRuns(query: RunListQuery): Promise<RunRecord[]> {
    const { sql, values } = listRunsQuery(this.statements.listRunsSelect, query);
    return this.run('listRuns', async () => (await this.pool.query<RunRow>(sql, values)).rows.map(toRunRecord));
  }

  async listSessions(query: SessionListQuery): Promise<SessionRecord[]> {
    const before = query.before;
    return this.run('listSessions', async () => {
      const found = await this.pool.query<{ session_id: string; runs: number; first_run_at: string; last_run_at: string }>(
        this.statements.listSessions,
        [before !== undefined, before?.lastRunAt ?? 0, before?.sessionId ?? '', query.limit],
      );
      return found.rows.map((row) => ({
        sessionId: row.session_id,
        runs: Number(row.runs),
        firstRunAt: Number(row.first_run_at),
        lastRunAt: Number(row.last_run_at),
      }));
    });
  }

  async deleteRuns(runIds: readonly string[]): Promise<string[]> {
    return this.run('deleteRuns', () =>
      this.transaction(async (client) => {
        const locked = await client.query<{ run_id: string; status: string }>(this.statements.lockRuns, [runIds]);
        const unfinished = locked.rows.filter((row) => isUnfinished(row.status as StoredRunStatus)).map((row) => row.run_id);
        if (unfinished.length > 0) throw new RunNotFinishedError(unfinished, 'delete');
        const found = locked.rows.map((row) => row.run_id);
        await client.query(this.statements.deleteJournals, [found]);
        await client.query(this.statements.tombstone, [found]);
        await client.query(this.statements.notifyRuns, [found]);
        return found;
      }),
    );
  }

  /** Ends the pool the store created; a pool passed in stays open (its owner ends it). */
  /**
   * Wakes a follower after each write to `runId` by any process (ADR 0025): one connection of the
   * pool listens while followers wait, every append notifies the schema's channel.
   */
  watchRun(runId: string, listener: (through?: number) => void): () => void {
    return this.changes.watch(runId, listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.changes.close();
    if (this.ownsPool) await this.pool.end();
  }

  /** One short transaction on one connection; a connection that failed is discarded, not reused. */
  /**
   * A statement of the hot path as a named query: PostgreSQL parses and plans it once per
   * connection instead of on every call (issue 34: parse and bind were a third of the server's
   * time of these statements).
   */
  private prepared(key: keyof PostgresStatements, values: unknown[]): pg.QueryConfig {
    return { name: `agentloom_${key}_${this.statementSuffix}`, text: this.statements[key], values };
  }

  /** `settings`: more `SET LOCAL` statements, sent with the `BEGIN` (no round trip of their own). */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>, settings?: string): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // The pool stops listening while the connection is lent out. A session the server ends (the
    // idle-transaction timeout after a freeze) would otherwise raise an unhandled 'error'; the
    // failure reaches us through the next query instead.
    const onError = () => {
      broken = true;
    };
    client.on('error', onError);
    try {
      const begin = `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${this.idleTransactionTimeoutMs}`;
      await client.query(settings ? `${begin}; ${settings}` : begin);
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** Runs one store operation: AgentLoom errors pass through, driver errors become `StoreFailureError`. */
  private async run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreFailureError(`PostgresRunStore.${operation}: the store is closed.`);
    try {
      return await work();
    } catch (error) {
      throw toPostgresStoreError(operation, this.schema, error);
    }
  }
}

/** Serialises entries into the three parallel arrays the statements unnest (before any connection is taken). */
function serializeEntries(entries: readonly NewJournalEntry[]): [string[], (string | null)[], string[]] {
  return [
    entries.map((entry) => entry.type),
    entries.map((entry) => entry.taskId ?? null),
    entries.map((entry) => JSON.stringify(entry.data) ?? 'null'),
  ];
}
