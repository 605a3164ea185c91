import type { Kysely } from 'kysely';

/**
 * Publishing an app over A2A (issue 32): one row per app whose owner switched A2A on (off by
 * default: no row), and the push-notification configs of its tasks: where to POST the task's
 * events, the credentials to send (sealed with the platform key) and the delivery cursor — the
 * journal sequence delivered last. Tasks and their events themselves are not stored: they are
 * projections of the run journal. Both go with their app (cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('app_a2a')
    .addColumn('app_id', 'text', (column) => column.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addColumn('updated_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema
    .createTable('a2a_push_configs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('task_id', 'text', (column) => column.notNull())
    .addColumn('config_id', 'text', (column) => column.notNull())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('token', 'text')
    .addColumn('auth_scheme', 'text')
    .addColumn('auth_credentials_sealed', 'text')
    .addColumn('delivered_sequence', 'integer', (column) => column.notNull().defaultTo(-1))
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('a2a_push_configs_task_config', ['task_id', 'config_id'])
    .execute();
  await database.schema
    .createIndex('a2a_push_configs_due')
    .on('a2a_push_configs')
    .columns(['state', 'next_attempt_at'])
    .execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['a2a_push_configs', 'app_a2a']) await database.schema.dropTable(table).execute();
}
