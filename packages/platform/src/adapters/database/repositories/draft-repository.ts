import type { Queryable } from '../queryable.js';

/** The app's draft row; throws when the app has none (every app gets one at creation). */
export function readDraftRow(database: Queryable, appId: string) {
  return database.selectFrom('app_drafts').selectAll().where('app_id', '=', appId).executeTakeFirstOrThrow();
}

/**
 * Saves the draft when it is still at revision `expected` (optimistic concurrency): the revision
 * becomes `expected + 1`. Answers whether it was saved.
 */
export async function saveDraftAtRevision(
  database: Queryable,
  appId: string,
  expected: number,
  values: { config: string; updatedBy: string; updatedAt: string },
): Promise<boolean> {
  const result = await database
    .updateTable('app_drafts')
    .set({ config: values.config, revision: expected + 1, updated_by: values.updatedBy, updated_at: values.updatedAt })
    .where('app_id', '=', appId)
    .where('revision', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
