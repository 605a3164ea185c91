import type { Kysely, Selectable, Transaction } from 'kysely';
import { hashToken, newId, randomToken } from '../crypto/index.js';
import { prepareQuery } from '../database/prepared-query.js';
import type { Queryable } from '../database/queryable.js';
import type { ApiKeysTable, PlatformDatabase } from '../database/schema.js';
import { apiKeyColumns } from '../database/table-columns.js';

/**
 * Creates a space key (`appId` null) or an app key. The secret (`al_<prefix>_<random>`) is
 * returned once; only its SHA-256 is stored, and the prefix lets people tell keys apart.
 */
export async function createApiKey(
  database: Kysely<PlatformDatabase>,
  values: { spaceId: string; appId: string | null; name: string; createdBy: string; now: Date },
) {
  const prefix = randomToken().replaceAll(/[-_]/g, '').slice(0, 8);
  const secret = `al_${prefix}_${randomToken()}`;
  const row = {
    id: newId('key'),
    space_id: values.spaceId,
    app_id: values.appId,
    name: values.name,
    prefix: `al_${prefix}`,
    secret_hash: hashToken(secret),
    created_by: values.createdBy,
    created_at: values.now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await database.insertInto('api_keys').values(row).execute();
  return { row, secret };
}

/** Who made a key: the user's id, email and name (null for a creator that is not a user, e.g. `key:…`). */
export interface KeyCreator {
  id: string;
  email: string | null;
  displayName: string | null;
}

/** Keys with their creators, read in one query (so that every key list can say who made each key). */
export async function withCreators(
  database: Kysely<PlatformDatabase> | Transaction<PlatformDatabase>,
  rows: readonly Selectable<ApiKeysTable>[],
): Promise<(Selectable<ApiKeysTable> & { creator: KeyCreator })[]> {
  const ids = [...new Set(rows.map((row) => row.created_by))];
  const users =
    ids.length === 0
      ? []
      : await database.selectFrom('users').select(['id', 'email', 'display_name']).where('id', 'in', ids).execute();
  const byId = new Map(users.map((user) => [user.id, user]));
  return rows.map((row) => {
    const user = byId.get(row.created_by);
    return { ...row, creator: { id: row.created_by, email: user?.email ?? null, displayName: user?.display_name ?? null } };
  });
}

/**
 * Revokes every active key `userId` made, in the caller's transaction, and returns them: the
 * option of disabling a user, so that a departed person's keys stop working at once.
 */
export async function revokeKeysMadeBy(
  transaction: Transaction<PlatformDatabase>,
  userId: string,
  now: Date,
): Promise<Selectable<ApiKeysTable>[]> {
  const active = await transaction
    .selectFrom('api_keys')
    .selectAll()
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
  if (active.length === 0) return [];
  const revokedAt = now.toISOString();
  await transaction
    .updateTable('api_keys')
    .set({ revoked_at: revokedAt })
    .where(
      'id',
      'in',
      active.map((key) => key.id),
    )
    .execute();
  return active.map((key) => ({ ...key, revoked_at: revokedAt }));
}

/** Whose keys: one app's, or the space's own keys (not bound to an app). */
export type ApiKeyScope = { appId: string } | { spaceId: string };

/** The keys of a scope, oldest first (prefixes only; the secret is never stored). */
export function listApiKeys(database: Queryable, scope: ApiKeyScope) {
  let query = database.selectFrom('api_keys').selectAll();
  query =
    'appId' in scope
      ? query.where('app_id', '=', scope.appId)
      : query.where('space_id', '=', scope.spaceId).where('app_id', 'is', null);
  return query.orderBy('created_at').execute();
}

/** Revokes a live key of the scope; answers whether there was one. */
export async function revokeApiKey(database: Queryable, scope: ApiKeyScope, keyId: string, at: Date): Promise<boolean> {
  let query = database.updateTable('api_keys').set({ revoked_at: at.toISOString() }).where('id', '=', keyId);
  query =
    'appId' in scope
      ? query.where('app_id', '=', scope.appId)
      : query.where('space_id', '=', scope.spaceId).where('app_id', 'is', null);
  const result = await query.where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How stale a key's `last_used_at` may get before a use writes it again: a minute's precision, not a write per request. */
export const apiKeyUseResolutionMs = 60_000;

/** The live key whose secret hashes to the argument (every API request asks it: compiled once). */
const liveKeyByHash = prepareQuery((database, secretHash: string) =>
  database.selectFrom('api_keys').select(apiKeyColumns).where('secret_hash', '=', secretHash).where('revoked_at', 'is', null),
);

/**
 * The live (unrevoked) key whose secret hashes to `secretHash`, marked used now; undefined when
 * none. The mark is written only when the stored one is older than `apiKeyUseResolutionMs`, so a
 * busy key costs one read per request, not a read and a write (issue 34).
 */
export async function useApiKey(database: Queryable, secretHash: string, at: Date) {
  const [key] = await liveKeyByHash(database, secretHash);
  if (key) await markUsed(database, key, at);
  return key;
}

/** Writes `last_used_at` of a key just found live, when the stored one is older than `apiKeyUseResolutionMs`. */
export async function markUsed(database: Queryable, key: { id: string; last_used_at: string | null }, at: Date) {
  const lastUsed = key.last_used_at ? Date.parse(key.last_used_at) : Number.NaN;
  if (!(at.getTime() - lastUsed < apiKeyUseResolutionMs))
    await database.updateTable('api_keys').set({ last_used_at: at.toISOString() }).where('id', '=', key.id).execute();
}
