import Database from 'better-sqlite3';
import { type FactStore, type MemoryFact, type MemoryScope, matchesQuery } from '../../capabilities/memory/fact-store.js';
import { StoreFailureError } from '../../core/errors/index.js';

/** Options of `SqliteFactStore`. */
export interface SqliteFactStoreOptions {
  /** The database file; it may be the run store's file (the facts get a table of their own). */
  path: string;
}

interface FactRow {
  fact_id: string;
  text: string;
  created_at: number;
}

/**
 * The memory port on SQLite (N-15): one table keyed by agent, user and fact id, so a fact written
 * again after a crash (same id) is ignored. Shared safely by the processes of one machine (WAL).
 */
export class SqliteFactStore implements FactStore {
  private readonly database: Database.Database;
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement<[string, string], FactRow>;
  private readonly remove: Database.Statement;

  constructor(options: SqliteFactStoreOptions) {
    try {
      this.database = new Database(options.path);
      this.database.pragma('busy_timeout = 5000');
      this.database.pragma('journal_mode = WAL');
      this.database.exec(`CREATE TABLE IF NOT EXISTS agentloom_facts (
        agent TEXT NOT NULL, user_id TEXT NOT NULL, fact_id TEXT NOT NULL, text TEXT NOT NULL, created_at INTEGER NOT NULL,
        PRIMARY KEY (agent, user_id, fact_id))`);
    } catch (error) {
      throw new StoreFailureError(`Cannot open the SQLite fact store at ${options.path}.`, { cause: error });
    }
    this.insert = this.database.prepare(
      'INSERT INTO agentloom_facts (agent, user_id, fact_id, text, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.select = this.database.prepare(
      'SELECT fact_id, text, created_at FROM agentloom_facts WHERE agent = ? AND user_id = ? ORDER BY created_at DESC, fact_id DESC',
    );
    this.remove = this.database.prepare('DELETE FROM agentloom_facts WHERE agent = ? AND user_id = ? AND fact_id = ?');
  }

  async remember(scope: MemoryScope, fact: MemoryFact): Promise<{ created: boolean }> {
    return this.call(() => ({
      created: this.insert.run(scope.agent, scope.user, fact.factId, fact.text, fact.createdAt).changes === 1,
    }));
  }

  async recall(scope: MemoryScope, options: { query?: string; limit?: number } = {}): Promise<MemoryFact[]> {
    return this.call(() =>
      this.select
        .all(scope.agent, scope.user)
        .filter((row) => matchesQuery(row.text, options.query))
        .slice(0, options.limit ?? Number.MAX_SAFE_INTEGER)
        .map((row) => ({ factId: row.fact_id, text: row.text, createdAt: row.created_at })),
    );
  }

  async forget(scope: MemoryScope, factId: string): Promise<{ forgotten: boolean }> {
    return this.call(() => ({ forgotten: this.remove.run(scope.agent, scope.user, factId).changes === 1 }));
  }

  async close(): Promise<void> {
    if (this.database.open) this.database.close();
  }

  private call<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw new StoreFailureError('The SQLite fact store failed.', { cause: error });
    }
  }
}
