import type { Queryable } from '../queryable.js';
import type { AppDeletionRow } from '../schema.js';

/** The deletion of the app, if one was asked for (kept after the app is gone). */
export function findDeletionOfApp(database: Queryable, appId: string): Promise<AppDeletionRow | undefined> {
  return database.selectFrom('app_deletions').selectAll().where('app_id', '=', appId).executeTakeFirst();
}
