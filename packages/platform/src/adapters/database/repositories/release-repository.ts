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

/** The newest published release version of an app (0 when it has none; debug snapshots are negative). */
export async function newestReleaseVersion(database: Queryable, appId: string): Promise<number> {
  const previous = await database
    .selectFrom('app_releases')
    .select('version')
    .where('app_id', '=', appId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Math.max(previous?.version ?? 0, 0);
}

/**
 * Saves a release (published or debug). Answers false when another publish took its version
 * first (the unique key refused it): the caller's transaction is then unusable and must end.
 */
export async function insertRelease(database: Queryable, release: AppReleaseRow): Promise<boolean> {
  try {
    await database.insertInto('app_releases').values(release).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Whether a database error is a unique-key refusal (SQLite `SQLITE_CONSTRAINT_UNIQUE` /
 * `_PRIMARYKEY`, PostgreSQL `23505`): only that means another publish took the version; any other
 * error (a busy database, a lost connection) is not a conflict and must not be reported as one.
 */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Makes `release` its app's newest, the one new runs start on. */
export async function markLatestRelease(database: Queryable, release: AppReleaseRow): Promise<void> {
  await database
    .updateTable('apps')
    .set({ latest_release_id: release.id, updated_at: release.published_at })
    .where('id', '=', release.app_id)
    .execute();
}
