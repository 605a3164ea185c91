import { z } from '@hono/zod-openapi';
import type { Selectable } from 'kysely';
import type { ApiKeysTable, UsersTable } from '../../adapters/database/schema.js';
import type { KeyCreator } from '../../adapters/identity/index.js';

/** A user as the API shows it (never the password hash). */
export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    displayName: z.string(),
    isInstanceAdmin: z.boolean(),
    status: z.enum(['active', 'disabled']),
    createdAt: z.string(),
  })
  .openapi('User');

export function userView(row: Selectable<UsersTable>): z.infer<typeof userSchema> {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    isInstanceAdmin: row.is_instance_admin === 1,
    status: row.status,
    createdAt: row.created_at,
  };
}

/** An API key as the API shows it: its prefix and its creator; the secret is shown once at creation. */
export const apiKeySchema = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    appId: z.string().nullable(),
    name: z.string(),
    prefix: z.string(),
    createdBy: z
      .object({ id: z.string(), email: z.string().nullable(), displayName: z.string().nullable() })
      .openapi({ description: 'Who made the key (email and name are null when no user did).' }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi('ApiKey');

export function apiKeyView(row: Selectable<ApiKeysTable> & { creator: KeyCreator }): z.infer<typeof apiKeySchema> {
  return {
    id: row.id,
    spaceId: row.space_id,
    appId: row.app_id,
    name: row.name,
    prefix: row.prefix,
    createdBy: row.creator,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** The body of a new key: the key and, once only, its secret. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string() }).openapi('CreatedApiKey');
