import type { Kysely } from 'kysely';

/**
 * Runs over HTTP (issue 14): the platform's index of runs (the SDK store keeps their truth,
 * P-11.9), the sessions they belong to, the idempotency keys that make a retried POST answer the
 * same run, and `run_jobs`, the lease table the dispatcher hands runs to workers with.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_run_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('sessions_app').on('sessions').columns(['app_id', 'last_run_at']).execute();

  await database.schema
    .createTable('runs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('release_id', 'text')
    .addColumn('stop_cause', 'text')
    .addColumn('requested_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('runs_app').on('runs').columns(['app_id', 'created_at']).execute();
  await database.schema.createIndex('runs_session').on('runs').columns(['session_id', 'created_at']).execute();

  await database.schema
    .createTable('idempotency_keys')
    .addColumn('principal', 'text', (column) => column.notNull())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('request_hash', 'text', (column) => column.notNull())
    .addColumn('run_id', 'text', (column) => column.notNull())
    .addColumn('session_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['principal', 'app_id', 'key'])
    .execute();

  await database.schema
    .createTable('run_jobs')
    .addColumn('run_id', 'text', (column) => column.primaryKey().references('runs.id').onDelete('cascade'))
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('attempt', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('worker_id', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('not_before', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('run_jobs_ready').on('run_jobs').columns(['state', 'not_before']).execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['run_jobs', 'idempotency_keys', 'runs', 'sessions']) await database.schema.dropTable(table).execute();
}
