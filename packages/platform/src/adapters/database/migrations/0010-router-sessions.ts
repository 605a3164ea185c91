import type { Kysely } from 'kysely';

/**
 * Router sessions (issue 33): the dialogue state the platform holds for each conversation with a
 * router app (`@agentloom/intent` keeps none, N-14), the run the router started for the active
 * action, and a turn counter that makes concurrent turns of one session conflict instead of
 * overwriting each other. Rows go with their app (foreign key, cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('router_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('turns', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('router_sessions_app').on('router_sessions').column('app_id').execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('router_sessions').execute();
}
