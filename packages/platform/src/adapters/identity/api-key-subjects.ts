import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import { prepareQuery } from '../database/prepared-query.js';
import type { Queryable } from '../database/queryable.js';
import { hasWebhook, splitRunWithApp } from '../database/repositories/run-repository.js';
import type { ApiKeysTable, AppRow, RunRow } from '../database/schema.js';
import { apiKeyColumns, appColumns, runColumns } from '../database/table-columns.js';
import { markUsed } from './api-keys.js';

/*
 * An API request's key read together with what its path names (issue 34): `POST /apps/{id}/runs`
 * needs the app and `GET /runs/{id}/events` the run with its app, and reading them in the key's
 * statement saves each request a round trip. The rows are those authorisation would have read a
 * moment later; it still decides everything.
 */

/** What a request's path names: an app, or a run (read with its app). */
export type KeySubject = { app: string } | { run: string };

/** The subject's rows as read with the key; absent rows are undefined. */
export type SubjectRows =
  | { app: string; row: AppRow | undefined }
  | { run: string; row: { run: RunRow; app: AppRow; webhook: boolean } | undefined };

const keySelection = apiKeyColumns.map((column) => `api_keys.${column}` as const);
const appSelection = appColumns.map((column) => sql.ref(`apps.${column}`).as(`app__${column}`));

/** A live key and an app by id (the app's columns prefixed `app__`, null when there is none). */
const liveKeyWithApp = prepareQuery((database, secretHash: string, appId: string) =>
  database
    .selectFrom('api_keys')
    .leftJoin('apps', (join) => join.on('apps.id', '=', appId))
    .select(keySelection)
    .select(appSelection)
    .where('api_keys.secret_hash', '=', secretHash)
    .where('api_keys.revoked_at', 'is', null),
);

/** A live key and a run by id with its app, as `readRunWithApp` reads them (null columns when there is no such run). */
const liveKeyWithRun = prepareQuery((database, secretHash: string, runId: string) =>
  database
    .selectFrom('api_keys')
    .leftJoin('runs', (join) => join.on('runs.id', '=', runId))
    .leftJoin('apps', 'apps.id', 'runs.app_id')
    .select(keySelection)
    .select(runColumns.map((column) => sql.ref(`runs.${column}`).as(`run__${column}`)))
    .select(appSelection)
    .select(hasWebhook())
    .where('api_keys.secret_hash', '=', secretHash)
    .where('api_keys.revoked_at', 'is', null),
);

/** The key's own columns of a joined row. */
function keyOf(row: Record<string, unknown>): Selectable<ApiKeysTable> {
  const key: Record<string, unknown> = {};
  for (const column of apiKeyColumns) key[column] = row[column];
  return key as unknown as Selectable<ApiKeysTable>;
}

/** The app of a joined row, or undefined when the join found none. */
function appOf(row: Record<string, unknown>): AppRow | undefined {
  if (row.app__id === null || row.app__id === undefined) return undefined;
  const app: Record<string, unknown> = {};
  for (const column of appColumns) app[column] = row[`app__${column}`];
  return app as unknown as AppRow;
}

/**
 * `useApiKey` with `subject`'s rows read in the same statement: the live key whose secret hashes
 * to `secretHash` (marked used as `useApiKey` marks it) and, when there is one, the subject.
 */
export async function useApiKeyWith(
  database: Queryable,
  secretHash: string,
  at: Date,
  subject: KeySubject,
): Promise<{ key: Selectable<ApiKeysTable>; subject: SubjectRows } | undefined> {
  const rows: Record<string, unknown>[] =
    'app' in subject
      ? await liveKeyWithApp(database, secretHash, subject.app)
      : await liveKeyWithRun(database, secretHash, subject.run);
  const [row] = rows;
  if (!row) return undefined;
  const key = keyOf(row);
  await markUsed(database, key, at);
  if ('app' in subject) return { key, subject: { app: subject.app, row: appOf(row) } };
  if (row.run__id === null || row.run__id === undefined || row.app__id === null || row.app__id === undefined)
    return { key, subject: { run: subject.run, row: undefined } };
  return { key, subject: { run: subject.run, row: splitRunWithApp(row, 'run__') } };
}
