import { LOCK_SPIN_MS, waitForLock, yieldIfTurnIsLong } from '@agentloom/sdk/store/sqlite';
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
} from 'kysely';

/** How many distinct SQL texts keep their prepared statement (least recently used dropped first). */
const statementCacheSize = 500;
/** How long a statement waits, in all, for another process's write lock before it fails (`SQLITE_BUSY`). */
const lockWaitLimitMs = 5_000;
/** The first wait for a lock, in milliseconds; doubled at each refusal up to `longestLockWaitMs`. */
const firstLockWaitMs = 1;
const longestLockWaitMs = 50;

/**
 * The platform's SQLite connection for Kysely, in place of Kysely's own driver, for three reasons
 * (issue 34):
 * - **Lock waits do not block the event loop.** The embedded default's worker child writes the same
 *   file; with a `busy_timeout` SQLite sleeps inside the call, and the whole server (every request,
 *   every SSE stream) with it. Here `busy_timeout` is 0: a statement the lock refuses is tried again
 *   at each turn of the event loop for 2 ms, then after a timer (1 ms, doubling to 50 ms, for 5 s in
 *   all), like the SDK's SQLite store does.
 * - **Transactions begin `IMMEDIATE`.** A deferred transaction that had only read is refused the
 *   upgrade to a writer (`SQLITE_BUSY_SNAPSHOT`, no wait can help) whenever the worker child
 *   committed in between; a publish then failed as a conflict that never happened. Taking the
 *   write lock at `BEGIN` makes the other writer wait instead.
 * - **Prepared statements are kept** for the most recent 500 SQL texts: Kysely's driver prepares
 *   every query anew (about 4 % of the server's time in `bench:platform`). Safe because one query
 *   runs at a time on the one connection (the mutex below); SQLite re-prepares after a schema change.
 */
export class PlatformSqliteDialect extends SqliteDialect {
  constructor(private readonly database: Database.Database) {
    super({ database: {} as SqliteDialectConfig['database'] });
    database.pragma('busy_timeout = 0');
  }

  override createDriver(): Driver {
    return new PlatformSqliteDriver(this.database);
  }
}

class PlatformSqliteDriver implements Driver {
  private readonly connection: PlatformSqliteConnection;
  /** SQLite has one connection here: a transaction holds it from `begin` to `commit`. */
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  constructor(private readonly database: Database.Database) {
    this.connection = new PlatformSqliteConnection(database);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // Lets the event loop turn first when this turn has used SQLite long (the SDK's budget, shared with its store).
    await yieldIfTurnIsLong();
    while (this.held) await this.held;
    this.held = new Promise((resolve) => {
      this.release = resolve;
    });
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.held = undefined;
    this.release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

class PlatformSqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly database: Database.Database) {}

  async executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
    let wait = firstLockWaitMs;
    let refusedAt: number | undefined;
    for (;;) {
      try {
        return this.execute<Row>(compiled);
      } catch (error) {
        // Refused by another process's lock: nothing ran, so the same statement may be tried again,
        // at each turn of the event loop at first, then on timers (`waitForLock`).
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
        refusedAt ??= performance.now();
        const waited = performance.now() - refusedAt;
        if (waited >= lockWaitLimitMs) throw error;
        await waitForLock(refusedAt, wait);
        if (waited >= LOCK_SPIN_MS) wait = Math.min(wait * 2, longestLockWaitMs);
      }
    }
  }

  // biome-ignore lint/correctness/useYield: Kysely's interface; the platform never streams SQLite rows.
  async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('The platform does not stream SQLite query results.');
  }

  private execute<Row>({ sql, parameters }: CompiledQuery): QueryResult<Row> {
    const statement = this.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as Row[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement) this.statements.delete(sql);
    else statement = this.database.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > statementCacheSize) this.statements.delete(this.statements.keys().next().value as string);
    return statement;
  }
}
