import { prepareQuery } from '../prepared-query.js';
import type { Queryable } from '../queryable.js';
import type { AppRow } from '../schema.js';
import { appColumns } from '../table-columns.js';

/** The space's apps (of one kind when given), by name. */
export function listApps(database: Queryable, spaceId: string, kind?: AppRow['kind']): Promise<AppRow[]> {
  let query = database.selectFrom('apps').selectAll().where('space_id', '=', spaceId);
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('name').execute();
}

/** The app `appId` (any state), or undefined. */
export async function findApp(database: Queryable, appId: string): Promise<AppRow | undefined> {
  return (await appById(database, appId))[0];
}

const appById = prepareQuery((database, appId: string) => database.selectFrom('apps').select(appColumns).where('id', '=', appId));

/** Inserts an app with its first draft (revision 1). */
export async function insertAppWithDraft(
  database: Queryable,
  row: AppRow,
  draft: { config: string; schemaVersion: number },
): Promise<void> {
  await database.insertInto('apps').values(row).execute();
  await database
    .insertInto('app_drafts')
    .values({
      app_id: row.id,
      config: draft.config,
      schema_version: draft.schemaVersion,
      revision: 1,
      updated_by: row.created_by,
      updated_at: row.created_at,
    })
    .execute();
}

export async function updateApp(
  database: Queryable,
  appId: string,
  changes: Partial<Pick<AppRow, 'name' | 'description'>> & { updated_at: string },
): Promise<void> {
  await database.updateTable('apps').set(changes).where('id', '=', appId).execute();
}

/** The file roots of the active apps (the sweeper looks for stale run directories in them). */
export function activeAppFileRoots(database: Queryable) {
  return database.selectFrom('apps').select(['id', 'file_root']).where('state', '=', 'active').execute();
}
