import type { Queryable } from '../queryable.js';
import type { AppReleaseRow } from '../schema.js';

/** The app's published releases (not debug snapshots of the draft), newest first. */
export function listReleases(database: Queryable, appId: string): Promise<AppReleaseRow[]> {
  return database
    .selectFrom('app_releases')
    .selectAll()
    .where('app_id', '=', appId)
    .where('kind', '=', 'release')
    .orderBy('version', 'desc')
    .execute();
}

/** The app's release of this version, or undefined. */
export function findRelease(database: Queryable, appId: string, version: number): Promise<AppReleaseRow | undefined> {
  return database
    .selectFrom('app_releases')
    .selectAll()
    .where('app_id', '=', appId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** The stored snapshot (JSON text) of a release, or undefined when there is no such release. */
export async function findReleaseSnapshotText(database: Queryable, releaseId: string): Promise<string | undefined> {
  const release = await database
    .selectFrom('app_releases')
    .select('config_snapshot')
    .where('id', '=', releaseId)
    .executeTakeFirst();
  return release?.config_snapshot;
}
