import type { Kysely } from 'kysely';

/**
 * A release keeps the draft it was published from (`draft_config`), so that
 * `POST /apps/{appId}/draft/restore` can copy it back; older releases have none (null).
 *
 * Sessions made before their first run (issue 36: `POST /apps/{appId}/sessions`) carry a title
 * people may change (`PATCH /sessions/{sessionId}`) and the caller's own user id
 * (`externalUserId`, an integration's end user). Both are optional: null on every older session.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema.alterTable('sessions').addColumn('title', 'text').execute();
  await database.schema.alterTable('sessions').addColumn('external_user_id', 'text').execute();
  await database.schema.alterTable('app_releases').addColumn('draft_config', 'text').execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.alterTable('app_releases').dropColumn('draft_config').execute();
  await database.schema.alterTable('sessions').dropColumn('external_user_id').execute();
  await database.schema.alterTable('sessions').dropColumn('title').execute();
}
