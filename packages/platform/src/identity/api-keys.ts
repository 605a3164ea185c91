import type { Kysely } from 'kysely';
import { hashToken, newId, randomToken } from '../crypto/index.js';
import type { PlatformDatabase } from '../database/schema.js';

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
