import type { Kysely } from 'kysely';

/**
 * The chat box and app deletion (issue 14): `message_keys` makes a retried
 * `POST /sessions/:id/messages` answer what the first one did (a supplement or a run), and
 * `app_deletions` is the durable, resumable deletion job of an app with its progress (P-13).
 * A deletion row outlives its app (no foreign key) so that its progress stays readable.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('message_keys')
    .addColumn('principal', 'text', (column) => column.notNull())
    .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('request_hash', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('run_id', 'text', (column) => column.notNull())
    .addColumn('supplement_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('message_keys_pk', ['principal', 'session_id', 'key'])
    .execute();

  await database.schema
    .createTable('app_deletions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('app_id', 'text', (column) => column.notNull().unique())
    .addColumn('space_id', 'text', (column) => column.notNull())
    .addColumn('app_name', 'text', (column) => column.notNull())
    .addColumn('step', 'text', (column) => column.notNull())
    .addColumn('runs_total', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('runs_deleted', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('requested_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['app_deletions', 'message_keys']) await database.schema.dropTable(table).execute();
}
