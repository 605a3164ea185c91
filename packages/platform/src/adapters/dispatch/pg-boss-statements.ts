import { CompiledQuery, type Transaction } from 'kysely';
import type PgBoss from 'pg-boss';
import { preparedText } from '../database/prepared-query.js';
import type { PlatformDatabase } from '../database/schema.js';

// The SQL of `PgBossDispatcher` on pg-boss's tables, and its opaque job ids.

/**
 * pg-boss's `db` option on a Kysely transaction: its statements join the caller's transaction.
 * With `prepared`, each parameterised statement is named on the connection (`preparedText`): only
 * for a call whose statements have a fixed text (pg-boss's `send`).
 */
export function onTransaction(transaction: Transaction<PlatformDatabase>, prepared = false): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const sql = prepared && values.length > 0 ? preparedText(text) : text;
      const result = await transaction.executeQuery(CompiledQuery.raw(sql, values));
      return { rows: result.rows as unknown[] };
    },
  };
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
