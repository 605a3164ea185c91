import pg from 'pg';
import { type FactStore, type MemoryFact, type MemoryScope, matchesQuery } from '../../capabilities/memory/fact-store.js';
import { InvalidConfigurationError, StoreFailureError } from '../../core/errors/index.js';

/** Options of `PostgresFactStore`. */
export interface PostgresFactStoreOptions {
  connectionString: string;
  /** Schema of the facts table, created by `setup()` if missing. Default `public`. */
  schema?: string;
  poolSize?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The memory port on PostgreSQL (N-15): one table keyed by agent, user and fact id, so a fact
 * written again after a crash (same id) is ignored, whichever machine writes it.
 */
export class PostgresFactStore implements FactStore {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private readonly schema: string;

  constructor(options: PostgresFactStoreOptions) {
    const schema = options.schema ?? 'public';
    if (!SCHEMA_NAME.test(schema))
      throw new InvalidConfigurationError('PostgresFactStore', [{ path: 'schema', message: 'lowercase letters, digits or _' }]);
    this.schema = schema;
    this.table = `${pg.escapeIdentifier(schema)}.agentloom_facts`;
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 4 });
  }

  /** Creates the schema and the table if missing; call once before use (safe to repeat). */
  async setup(): Promise<void> {
    await this.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(this.schema)}`);
    await this.query(`CREATE TABLE IF NOT EXISTS ${this.table} (
      agent TEXT NOT NULL, user_id TEXT NOT NULL, fact_id TEXT NOT NULL, text TEXT NOT NULL, created_at BIGINT NOT NULL,
      PRIMARY KEY (agent, user_id, fact_id))`);
  }

  async remember(scope: MemoryScope, fact: MemoryFact): Promise<{ created: boolean }> {
    const result = await this.query(
      `INSERT INTO ${this.table} (agent, user_id, fact_id, text, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [scope.agent, scope.user, fact.factId, fact.text, fact.createdAt],
    );
    return { created: result.rowCount === 1 };
  }

  async recall(scope: MemoryScope, options: { query?: string; limit?: number } = {}): Promise<MemoryFact[]> {
    const result = await this.query(
      `SELECT fact_id, text, created_at FROM ${this.table} WHERE agent = $1 AND user_id = $2 ORDER BY created_at DESC, fact_id DESC`,
      [scope.agent, scope.user],
    );
    return (result.rows as Array<{ fact_id: string; text: string; created_at: string }>)
      .filter((row) => matchesQuery(row.text, options.query))
      .slice(0, options.limit ?? Number.MAX_SAFE_INTEGER)
      .map((row) => ({ factId: row.fact_id, text: row.text, createdAt: Number(row.created_at) }));
  }

  async forget(scope: MemoryScope, factId: string): Promise<{ forgotten: boolean }> {
    const result = await this.query(`DELETE FROM ${this.table} WHERE agent = $1 AND user_id = $2 AND fact_id = $3`, [
      scope.agent,
      scope.user,
      factId,
    ]);
    return { forgotten: result.rowCount === 1 };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async query(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(text, values);
    } catch (error) {
      throw new StoreFailureError('The PostgreSQL fact store failed.', { cause: error });
    }
  }
}
