import type { Kysely } from 'kysely';
import { addColumns } from './tables.js';

/**
 * Capability-aware dispatch (NOT-18, issue 14): a run's job on the lease table says whether the
 * run needs a worker that can isolate commands (bubblewrap); a worker without it never claims
 * such a job. 1 or 0, the same on SQLite and PostgreSQL. Existing jobs need nothing (0); a
 * worker re-checks the release at start anyway.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await addColumns(database, 'run_jobs', { needs_isolation: 'integer not null default 0' });
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.alterTable('run_jobs').dropColumn('needs_isolation').execute();
}
