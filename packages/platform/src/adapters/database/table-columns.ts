import type { Selectable } from 'kysely';
import type { ApiKeysTable, AppRow, RunRow } from './schema.js';

type ApiKeyRow = Selectable<ApiKeysTable>;

/**
 * The columns of the tables the hot path reads by id, listed: a query that names its columns
 * (rather than `*`) may be kept as a named statement on PostgreSQL (`namedStatementPool`), and
 * keeps its answer's shape when a migration adds a column. Each list is checked to be whole:
 * a column added to a table's type and not here fails the type check.
 */
type Whole<Row, Listed extends keyof Row> = Exclude<keyof Row, Listed> extends never ? readonly Listed[] : never;

const listed =
  <Row>() =>
  <const Listed extends readonly (keyof Row)[]>(columns: Listed & Whole<Row, Listed[number]>) =>
    columns;

export const appColumns = listed<AppRow>()([
  'id',
  'space_id',
  'kind',
  'name',
  'description',
  'mode',
  'file_root',
  'state',
  'latest_release_id',
  'created_by',
  'created_at',
  'updated_at',
]);

export const runColumns = listed<RunRow>()([
  'id',
  'space_id',
  'app_id',
  'session_id',
  'release_id',
  'stop_cause',
  'requested_by',
  'created_at',
]);

export const apiKeyColumns = listed<ApiKeyRow>()([
  'id',
  'space_id',
  'app_id',
  'name',
  'prefix',
  'secret_hash',
  'created_by',
  'created_at',
  'last_used_at',
  'revoked_at',
]);
