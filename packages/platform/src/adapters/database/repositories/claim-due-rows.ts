import { type Kysely, sql } from 'kysely';
import type { PlatformDatabase } from '../schema.js';

/** The outboxes whose rows deliverers claim: completion webhooks and A2A push configs. */
export type OutboxTable = 'webhook_deliveries' | 'a2a_push_configs';

/**
 * Claims up to `batchSize` rows of `table` in `activeState` that are due (`next_attempt_at` passed)
 * and not claimed by a live owner, for `claimMs`: one `UPDATE … RETURNING` statement, so no two
 * deliverers claim a row at once — on PostgreSQL its subquery takes `FOR UPDATE SKIP LOCKED`
 * (deliverers on many machines pass each other's rows by), on SQLite the statement holds the one
 * writer lock. Answers the claimed rows as they are now.
 */
export async function claimDueRows<Row>(
  database: Kysely<PlatformDatabase>,
  dialect: 'sqlite' | 'postgres',
  options: { table: OutboxTable; activeState: string; owner: string; now: Date; claimMs: number; batchSize: number },
): Promise<Row[]> {
  const { table, activeState, owner, now, claimMs, batchSize } = options;
  const at = now.toISOString();
  const until = new Date(now.getTime() + claimMs).toISOString();
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<Row>`
    update ${sql.table(table)} set locked_by = ${owner}, locked_until = ${until}
    where id in (
      select id from ${sql.table(table)}
      where state = ${activeState} and next_attempt_at <= ${at} and (locked_until is null or locked_until < ${at})
      order by next_attempt_at
      limit ${batchSize}
      ${lock})
    returning *`.execute(database);
  return rows;
}

/**
 * Hands a claimed row of `table` back with `changes` (its cursor, state, next try, attempt log),
 * but only while `owner` still holds the claim: a deliverer whose claim lapsed and was taken by
 * another never overwrites that one's progress.
 */
export async function releaseClaimedRow(
  database: Kysely<PlatformDatabase>,
  table: OutboxTable,
  id: string,
  owner: string,
  changes: Record<string, unknown>,
): Promise<void> {
  await database
    .updateTable(table)
    .set({ ...changes, locked_by: null, locked_until: null } as never)
    .where('id', '=', id)
    .where('locked_by', '=', owner)
    .execute();
}
