import type { Kysely } from 'kysely';

/**
 * Sign-in limits (P-15.3) in the platform database, so that every API node counts the same
 * failures. One row per key: `account:<digest of the email>` (consecutive failures and the last
 * one, for the back-off), `address:<client address>` (failures in the current window), and
 * `known:<digest of account and address>` (a recent success, which lets that account sign in
 * from an address that is over its limit). `updated_at` lets old rows be pruned.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('sign_in_limits')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('failures', 'integer', (column) => column.notNull())
    .addColumn('window_started_at', 'text', (column) => column.notNull())
    .addColumn('last_failure_at', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('sign_in_limits_updated').on('sign_in_limits').column('updated_at').execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('sign_in_limits').execute();
}
