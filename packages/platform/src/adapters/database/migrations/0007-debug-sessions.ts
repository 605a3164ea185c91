import type { Kysely } from 'kysely';
import { addColumns } from './tables.js';

/**
 * Debug runs of the console editor (PLATFORM.md §4.4 `release: 'draft'`): a session says whether
 * it is an ordinary session of the app or a debug session, which the app's session list never
 * shows and which ordinary runs never continue. Existing sessions are ordinary ones.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await addColumns(database, 'sessions', { kind: "text not null default 'agent'" });
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.alterTable('sessions').dropColumn('kind').execute();
}
