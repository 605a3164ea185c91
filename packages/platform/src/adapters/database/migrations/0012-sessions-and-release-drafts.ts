import type { Kysely } from 'kysely';
import { addColumns } from './tables.js';

/**
 * A release keeps the draft it was published from (`draft_config`), so that
 * `POST /apps/{appId}/draft/restore` can copy it back; older releases have none (null).
 *
 * Sessions made before their first run (issue 36: `POST /apps/{appId}/sessions`) carry a title
 * people may change (`PATCH /sessions/{sessionId}`) and the caller's own user id
 * (`externalUserId`, an integration's end user). Both are optional: null on every older session.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await addColumns(database, 'sessions', { title: 'text', external_user_id: 'text' });
  await addColumns(database, 'app_releases', { draft_config: 'text' });
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.alterTable('app_releases').dropColumn('draft_config').execute();
  await database.schema.alterTable('sessions').dropColumn('external_user_id').execute();
  await database.schema.alterTable('sessions').dropColumn('title').execute();
}
