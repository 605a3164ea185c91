import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isPreparedText } from './prepared-query.js';

type Query = (text: unknown, values?: unknown) => Promise<unknown>;

/**
 * A `*` in a column list (`select *`, `"runs".*`, `returning *`): such a statement is left
 * unnamed, since a column added by a migration while a connection keeps its plan (a rolling
 * upgrade) would fail it with "cached plan must not change result type".
 */
const starColumns = /(select|returning|,)\s+("?\w+"?\.)?\*/i;

/** Whether `text` may be kept as a named statement. */
const nameable = (text: string) => isPreparedText(text) && !starColumns.test(text);

/**
 * The pool Kysely gets on PostgreSQL: the queries of `prepareQuery` — the hot path's, whose SQL
 * never changes — with an explicit column list go out as named statements, which PostgreSQL parses and plans once per
 * connection instead of on every call (issue 34: parse and bind were about a third of the
 * server's time of these short statements). Every other query runs as Kysely sends it.
 */
export function namedStatementPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `platform_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  const named = new WeakSet<object>();
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      if (!named.has(client)) {
        named.add(client);
        const query = client.query.bind(client) as Query;
        Object.assign(client, {
          query: (text: unknown, values?: unknown) =>
            typeof text === 'string' && nameable(text) ? query({ name: nameOf(text), text, values }) : query(text, values),
        });
      }
      return client as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
