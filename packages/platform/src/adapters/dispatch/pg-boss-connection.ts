import { createHash } from 'node:crypto';
import pg from 'pg';
import type PgBoss from 'pg-boss';

/** At most this many distinct statements are named per process; any further one runs unnamed. */
const maximumNamed = 64;

/** pg-boss's connection to the platform's database: its own pool, closed by `close`. */
export interface PgBossConnection {
  /** What pg-boss runs its statements through (its `db` option). */
  readonly db: PgBoss.Db;
  close(): Promise<void>;
}

/**
 * pg-boss's statements on a pool of the platform's own, where each parameterised statement is a
 * named (prepared) one: PostgreSQL parses and plans it once per connection. pg-boss sends every
 * statement unnamed, and its fetch — the query every claim makes, a window function over a locked
 * subquery — spent more of the server's time in parsing and planning than in running (issue 34).
 * A statement without parameters may hold several statements (pg-boss's migrations and locked
 * maintenance), which cannot be prepared: it runs as it comes.
 */
export function pgBossConnection(options: {
  connectionString: string;
  max: number;
  onError?: ((error: Error) => void) | undefined;
}): PgBossConnection {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max, application_name: 'pgboss' });
  pool.on('error', (error) => options.onError?.(error));
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < maximumNamed) {
      name = `pgboss_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    db: {
      async executeSql(text: string, values?: unknown[]) {
        const name = values && values.length > 0 ? nameOf(text) : undefined;
        return name === undefined ? pool.query(text, values) : pool.query({ name, text, values });
      },
    },
    close: async () => {
      if (!pool.ending) await pool.end();
    },
  };
}
