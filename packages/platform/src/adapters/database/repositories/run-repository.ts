import { CompiledQuery, sql } from 'kysely';
import { preparedText, prepareQuery } from '../prepared-query.js';
import type { Queryable } from '../queryable.js';
import type { AppRow, RunRow } from '../schema.js';
import { appColumns, runColumns } from '../table-columns.js';

/**
 * A run's index row and its app's row; undefined when either is gone (deleted). `webhook`: the
 * run owes a completion webhook (it has a delivery), so its end must nudge it — read here, by an
 * index probe in the same statement, rather than by an update per run that finds no delivery.
 */
export async function readRunWithApp(
  database: Queryable,
  runId: string,
): Promise<{ run: RunRow; app: AppRow; webhook: boolean } | undefined> {
  return splitRunWithApp((await runWithAppById(database, runId))[0] as Record<string, unknown> | undefined);
}

/**
 * The run's and the app's columns of a joined row (the app's prefixed `app__`, the run's
 * `runPrefix`: none here, `run__` where another table's columns share the row).
 */
export function splitRunWithApp(
  row: Record<string, unknown> | undefined,
  runPrefix = '',
): { run: RunRow; app: AppRow; webhook: boolean } | undefined {
  if (!row) return undefined;
  const run: Record<string, unknown> = {};
  const app: Record<string, unknown> = {};
  for (const column of runColumns) run[column] = row[`${runPrefix}${column}`];
  for (const column of appColumns) app[column] = row[`app__${column}`];
  return { run: run as unknown as RunRow, app: app as unknown as AppRow, webhook: Boolean(row.has_webhook) };
}

/** Whether the `runs` row of the query owes a completion webhook: an index probe (see `readRunWithApp`). */
const webhookProbe = 'exists (select 1 from webhook_deliveries where webhook_deliveries.run_id = runs.id)';

/** `webhookProbe` as the selected column `has_webhook`, for a query that joins `runs`. */
export const hasWebhook = () => sql.raw<boolean>(webhookProbe).as('has_webhook');

/**
 * A run's start on PostgreSQL (D-P5, P-6.5): `readRunWithApp`, with a run that has no release
 * yet pinned to its app's newest one by the same statement (issue 34: one round trip, not two).
 * The pin is made only for an active app with a release and a run without one (the first writer
 * wins, as `pinRunRelease`); otherwise the row is read as it is, and the caller pins as before.
 * The query's SELECT sees the rows as they were before its UPDATE, hence the pinned value is
 * taken from the UPDATE's answer.
 */
export async function readRunWithAppPinning(
  database: Queryable,
  dialect: 'sqlite' | 'postgres',
  runId: string,
): Promise<{ run: RunRow; app: AppRow; webhook: boolean } | undefined> {
  if (dialect !== 'postgres') return readRunWithApp(database, runId);
  const rows = (await database.executeQuery(CompiledQuery.raw(pinnedRunWithAppText, [runId]))).rows;
  return splitRunWithApp(rows[0] as Record<string, unknown> | undefined);
}

const pinnedRunWithAppText = preparedText(`with pinned as (
    update runs set release_id = apps.latest_release_id from apps
    where runs.id = $1 and runs.release_id is null and apps.id = runs.app_id and apps.state = 'active'
      and apps.latest_release_id is not null
    returning runs.release_id)
  select ${runColumns.map((column) => (column === 'release_id' ? 'coalesce((select release_id from pinned), runs.release_id) as release_id' : `runs.${column}`)).join(', ')},
    ${appColumns.map((column) => `apps.${column} as app__${column}`).join(', ')},
    ${webhookProbe} as has_webhook
  from runs inner join apps on apps.id = runs.app_id where runs.id = $1`);

/** A run and its app in one statement (every run start and every run route reads both, issue 34). */
const runWithAppById = prepareQuery((database, runId: string) =>
  database
    .selectFrom('runs')
    .innerJoin('apps', 'apps.id', 'runs.app_id')
    .select(runColumns.map((column) => `runs.${column}` as const))
    .select(appColumns.map((column) => sql.ref(`apps.${column}`).as(`app__${column}`)))
    .select(hasWebhook())
    .where('runs.id', '=', runId),
);

/** The run's index row; throws when it does not exist. */
export async function readRun(database: Queryable, runId: string): Promise<RunRow> {
  const run = await findRun(database, runId);
  if (!run) throw new Error(`The run ${runId} has no index row.`);
  return run;
}

/** Sets a run's release when it has none yet; answers the row when it did (every run start asks: compiled once). */
const pinReleaseOnce = prepareQuery((database, runId: string, releaseId: string) =>
  database
    .updateTable('runs')
    .set({ release_id: releaseId })
    .where('id', '=', runId)
    .where('release_id', 'is', null)
    .returning('release_id'),
);

/**
 * Pins a run to its release (D-P5): a run without one takes `latestReleaseId`, once (the first
 * writer wins); answers the release the run is pinned to now, null when there is none yet. The
 * pin that lands answers itself (`RETURNING`, no read back, issue 34); only a pin another worker
 * made first is read.
 */
export async function pinRunRelease(database: Queryable, runId: string, latestReleaseId: string | null): Promise<string | null> {
  if (latestReleaseId !== null) {
    const [pinned] = await pinReleaseOnce(database, runId, latestReleaseId);
    if (pinned) return pinned.release_id;
  }
  return (await readRun(database, runId)).release_id;
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
export async function findRun(database: Queryable, runId: string): Promise<RunRow | undefined> {
  return (await runById(database, runId))[0];
}

const runById = prepareQuery((database, runId: string) => database.selectFrom('runs').select(runColumns).where('id', '=', runId));

/** Records why a run was asked to stop, once (the first cause stays). */
export async function recordStopCause(
  database: Queryable,
  runId: string,
  cause: NonNullable<RunRow['stop_cause']>,
): Promise<void> {
  await database.updateTable('runs').set({ stop_cause: cause }).where('id', '=', runId).where('stop_cause', 'is', null).execute();
}

/**
 * The newest run of each session of the app that is pinned to a release other than `releaseId`
 * (only a session's newest run can be unfinished: one active run per session, S-2).
 */
export async function newestRunsOnOtherReleases(database: Queryable, appId: string, releaseId: string): Promise<string[]> {
  const rows = await database
    .selectFrom('runs')
    .select('runs.id')
    .where('runs.app_id', '=', appId)
    .where('runs.release_id', 'is not', null)
    .where('runs.release_id', '!=', releaseId)
    .where((where) =>
      where(
        'runs.created_at',
        '=',
        where
          .selectFrom('runs as newest')
          .select((select) => select.fn.max('newest.created_at').as('created_at'))
          .whereRef('newest.session_id', '=', 'runs.session_id'),
      ),
    )
    .execute();
  return rows.map((row) => row.id);
}

/** The runs of a session (id and creation time), oldest first. */
export function runsOfSession(database: Queryable, sessionId: string) {
  return database
    .selectFrom('runs')
    .select(['id', 'created_at'])
    .where('session_id', '=', sessionId)
    .orderBy('created_at', 'asc')
    .execute();
}

/** The release each of `runIds` that is a platform run is pinned to, or its app's newest release while it is queued. */
export async function releasesOfRuns(
  database: Queryable,
  runIds: readonly string[],
): Promise<{ runId: string; releaseId: string | null }[]> {
  if (runIds.length === 0) return [];
  const rows = await database
    .selectFrom('runs')
    .innerJoin('apps', 'apps.id', 'runs.app_id')
    .select(['runs.id', 'runs.release_id', 'apps.latest_release_id'])
    .where('runs.id', 'in', [...runIds])
    .execute();
  return rows.map((row) => ({ runId: row.id, releaseId: row.release_id ?? row.latest_release_id }));
}

/** The index rows of these runs (those the platform started; inner workflow runs have none, NOT-24). */
export function findRunsByIds(database: Queryable, runIds: readonly string[]): Promise<RunRow[]> {
  if (runIds.length === 0) return Promise.resolve([]);
  return database
    .selectFrom('runs')
    .selectAll()
    .where('id', 'in', [...runIds])
    .execute();
}
