import type { Kysely } from 'kysely';

/**
 * Router sessions (issue 33): the dialogue state the platform holds for each conversation with a
 * router app (`@agentloom/intent` keeps none, N-14), the run the router started for the active
 * action, and a turn counter that makes concurrent turns of one session conflict instead of
 * overwriting each other; and each session's transcript (`router_turns`). Rows go with their app
 * (foreign keys, cascade).
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
  // The transcript: each turn's message and what the router answered (commands, trace, reply, effects).
  await database.schema
    .createTable('router_turns')
    .addColumn('session_id', 'text', (column) => column.notNull().references('router_sessions.id').onDelete('cascade'))
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('text', 'text', (column) => column.notNull())
    .addColumn('result', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('router_turns_pk', ['session_id', 'turn'])
    .execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('router_turns').execute();
  await database.schema.dropTable('router_sessions').execute();
}
