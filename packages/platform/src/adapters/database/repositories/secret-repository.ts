import type { Queryable } from '../queryable.js';
import type { SecretsTable } from '../schema.js';

/** A space secret as stored: its value sealed, its mask for display. */
export type SecretRow = SecretsTable;

/** The space's secrets (names and masks only), by name. */
export function listSecrets(database: Queryable, spaceId: string) {
  return database
    .selectFrom('secrets')
    .select(['id', 'name', 'mask', 'updated_at'])
    .where('space_id', '=', spaceId)
    .orderBy('name')
    .execute();
}

/** Whether the space has a secret of this name. */
export async function secretNameTaken(database: Queryable, spaceId: string, name: string): Promise<boolean> {
  const existing = await database
    .selectFrom('secrets')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('name', '=', name)
    .executeTakeFirst();
  return existing !== undefined;
}

export async function insertSecret(database: Queryable, row: SecretRow): Promise<void> {
  await database.insertInto('secrets').values(row).execute();
}

/** Deletes a secret of the space; answers whether there was one. */
export async function deleteSecret(database: Queryable, spaceId: string, secretId: string): Promise<boolean> {
  const result = await database
    .deleteFrom('secrets')
    .where('id', '=', secretId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
