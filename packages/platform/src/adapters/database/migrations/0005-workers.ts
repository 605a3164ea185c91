import type { Kysely } from 'kysely';

/**
 * Workers (PLATFORM.md §4.3 `workers`, §4.6): each `RunWorker` registers here at start with what it
 * can do, heartbeats while it lives and marks itself `gone` when it stops. An operator sets
 * `draining`; the worker sees it at its next heartbeat, hands its runs over and ends `gone`.
 * Times are ISO text, like every other table of the platform.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('workers')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('host', 'text', (column) => column.notNull())
    .addColumn('version', 'text', (column) => column.notNull())
    .addColumn('capabilities', 'text', (column) => column.notNull())
    .addColumn('max_concurrent_runs', 'integer', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('heartbeat_at', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('workers_state_heartbeat').on('workers').columns(['state', 'heartbeat_at']).execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('workers').execute();
}
