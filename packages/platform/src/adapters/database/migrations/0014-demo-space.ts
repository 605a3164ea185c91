import type { Kysely } from 'kysely';
import { addColumns } from './tables.js';

/**
 * Marks the seeded Demo space (issue 35): first start seeds it once and finds it again by this
 * flag (never by its name, which its owner may change), and "Crash the worker" is offered on
 * its runs only. 0/1 like every boolean of the platform.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await addColumns(database, 'spaces', { demo: 'integer not null default 0' });
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.alterTable('spaces').dropColumn('demo').execute();
}
