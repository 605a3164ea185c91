import type { Queryable } from '../queryable.js';
import type { AppRow, RunRow } from '../schema.js';

/** A run's index row and its app's row; undefined when either is gone (deleted). */
export async function readRunWithApp(database: Queryable, runId: string): Promise<{ run: RunRow; app: AppRow } | undefined> {
  const run = await database.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run) return undefined;
  const app = await database.selectFrom('apps').selectAll().where('id', '=', run.app_id).executeTakeFirst();
  return app ? { run, app } : undefined;
}

/** The run's index row; throws when it does not exist. */
export function readRun(database: Queryable, runId: string): Promise<RunRow> {
  return database.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
}

/**
 * Pins a run to its release (D-P5): a run without one takes `latestReleaseId`, once (the first
 * writer wins); answers the release the run is pinned to now, null when there is none yet.
 */
export async function pinRunRelease(database: Queryable, runId: string, latestReleaseId: string | null): Promise<string | null> {
  if (latestReleaseId !== null) {
    await database
      .updateTable('runs')
      .set({ release_id: latestReleaseId })
      .where('id', '=', runId)
      .where('release_id', 'is', null)
      .execute();
  }
  const { release_id: releaseId } = await database
    .selectFrom('runs')
    .select('release_id')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  return releaseId;
}

/** The stored snapshot (JSON text) of a release; throws when the release does not exist. */
export async function readReleaseSnapshotText(database: Queryable, releaseId: string): Promise<string> {
  const release = await database
    .selectFrom('app_releases')
    .select('config_snapshot')
    .where('id', '=', releaseId)
    .executeTakeFirstOrThrow();
  return release.config_snapshot;
}

/** The completion webhook delivery of a run, if it asked for one. */
export function findWebhookDelivery(database: Queryable, runId: string) {
  return database.selectFrom('webhook_deliveries').selectAll().where('run_id', '=', runId).executeTakeFirst();
}

/** The run's index row, or undefined. */
export function findRun(database: Queryable, runId: string): Promise<RunRow | undefined> {
  return database.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
}
