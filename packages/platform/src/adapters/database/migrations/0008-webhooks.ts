import type { Kysely } from 'kysely';

/**
 * Completion webhooks (issue 14): an app's signing secret (sealed with the platform key, like
 * connection keys, so the platform can sign but the database alone reveals nothing), and one
 * delivery per run that asked for a webhook, created with the run in one transaction so that a
 * run can never end without its delivery being owed. A delivery outlives nothing: it goes with
 * its run's app (cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('app_webhook_secrets')
    .addColumn('app_id', 'text', (column) => column.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  await database.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('run_id', 'text', (column) => column.notNull().unique())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('attempt_log', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await database.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'app_webhook_secrets']) await database.schema.dropTable(table).execute();
}
