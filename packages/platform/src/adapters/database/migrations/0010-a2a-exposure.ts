import type { Kysely } from 'kysely';

/**
 * Publishing an app over A2A (issue 32): one row per app whose owner switched A2A on. The switch
 * is off by default (no row); the row goes with its app (cascade). Nothing else of A2A is stored:
 * tasks and their events are projections of the run journal.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('app_a2a')
    .addColumn('app_id', 'text', (column) => column.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addColumn('updated_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('app_a2a').execute();
}
