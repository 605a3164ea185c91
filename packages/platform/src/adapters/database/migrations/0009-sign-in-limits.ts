import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * Sign-in limits (P-15.3) in the platform database, so that every API node counts the same
 * failures. One row per key: `account:<digest of the email>` (consecutive failures and the last
 * one, for the back-off), `address:<client address>` (failures in the current window), and
 * `known:<digest of account and address>` (a recent success, which lets that account sign in
 * from an address that is over its limit). `updated_at` lets old rows be pruned.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(
    database,
    'sign_in_limits',
    {
      key: 'text primary key',
      failures: 'integer not null',
      window_started_at: 'text not null',
      last_failure_at: 'text',
      updated_at: 'text not null',
    },
    { indexes: { sign_in_limits_updated: ['updated_at'] } },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('sign_in_limits').execute();
}
