import { CompiledQuery, type Transaction } from 'kysely';
import type PgBoss from 'pg-boss';
import { preparedText } from '../database/prepared-query.js';
import type { PlatformDatabase } from '../database/schema.js';

// The SQL of `PgBossDispatcher` on pg-boss's tables, and its opaque job ids.

/**
 * pg-boss's `db` option on a Kysely transaction: its statements join the caller's transaction.
 * With `prepared`, each parameterised statement is named on the connection (`preparedText`): only
 * for a call whose statements have a fixed text (pg-boss's `send`). With `notify` (a channel and
 * its payload), that statement — `send`'s one `INSERT … RETURNING id` — also calls
 * `pg_notify` for the row it inserted: the job and its wake-up in one round trip (issue 34).
 */
export function onTransaction(
  transaction: Transaction<PlatformDatabase>,
  prepared = false,
  notify?: readonly [channel: string, payload: string],
): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const notifying = notify !== undefined && values.length > 0;
      const statement = notifying ? insertThatNotifies(text, values.length) : text;
      const sql = prepared && values.length > 0 ? preparedText(statement) : statement;
      const result = await transaction.executeQuery(CompiledQuery.raw(sql, notifying ? [...values, ...notify] : values));
      return { rows: result.rows as unknown[] };
    },
  };
}

/** Texts of `insertThatNotifies`, by pg-boss's text (one per schema): built once. */
const notifyingTexts = new Map<string, string>();

/**
 * pg-boss's insert `text` (an `INSERT … RETURNING id` with `arity` parameters) as a CTE whose
 * outer select calls `pg_notify(channel, payload)` once per inserted row: no row (a conflict), no
 * signal. PostgreSQL delivers the signal at the commit, as the separate statement did.
 */
function insertThatNotifies(text: string, arity: number): string {
  let wrapped = notifyingTexts.get(text);
  if (wrapped === undefined) {
    wrapped = `with job as (${text}) select job.id, pg_notify($${arity + 1}, $${arity + 2}) from job`;
    notifyingTexts.set(text, wrapped);
  }
  return wrapped;
}

/**
 * The adapter's statements on pg-boss's job table `jobTable` (quoted), built once per dispatcher
 * and named on each connection (`preparedText`, issue 34): renew, complete and the claim's
 * lease run for every run, and PostgreSQL planned each one on every call while unnamed.
 */
export function jobStatements(jobTable: string) {
  return {
    renew: preparedText(`update ${jobTable} set expire_in = (now() - started_on) + $4::numeric * interval '1 millisecond'
         where name = $1 and id = $2::uuid and state = 'active' and retry_count = $3`),
    renewAll:
      preparedText(`update ${jobTable} as job set expire_in = (now() - job.started_on) + $4::numeric * interval '1 millisecond'
         from unnest($1::text[], $2::uuid[], $3::int[]) as claim(name, id, retry_count)
         where job.name = claim.name and job.id = claim.id and job.state = 'active' and job.retry_count = claim.retry_count`),
    complete: preparedText(`update ${jobTable} set completed_on = now(), state = 'completed', output = '{}'::jsonb
         where name = $1 and id = $2::uuid and state = 'active' and retry_count = $3`),
    sweep: preparedText(`select name, id, data->>'runId' as run_id from ${jobTable}
           where name = any($1::text[]) and state = 'active' and started_on + expire_in < now()
           for update skip locked`),
    runsWithJobs: preparedText(`select distinct data->>'runId' as run_id from ${jobTable}
         where name = any($1::text[]) and state in ('created', 'retry', 'active') and data->>'runId' = any($2::text[])`),
    lockClaim: preparedText(
      `select id from ${jobTable} where name = $1 and id = $2::uuid and state = 'active' and retry_count = $3 for update`,
    ),
  };
}

/** Renew and complete on one queue's partition `partition` (quoted) of the job table: no `name` to prune by. */
export function partitionStatements(partition: string) {
  return {
    renew: preparedText(`update ${partition} set expire_in = (now() - started_on) + $3::numeric * interval '1 millisecond'
         where id = $1::uuid and state = 'active' and retry_count = $2`),
    complete: preparedText(`update ${partition} set completed_on = now(), state = 'completed', output = '{}'::jsonb
         where id = $1::uuid and state = 'active' and retry_count = $2`),
  };
}

/** Reads a claim's opaque job id `queue/uuid/retryCount`. */
export function parseJobId(jobId: string): { queue: string; id: string; retryCount: number } {
  const [queue = '', id = '', retryCount = '0'] = jobId.split('/');
  return { queue, id, retryCount: Number(retryCount) };
}
