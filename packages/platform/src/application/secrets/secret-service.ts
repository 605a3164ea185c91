import { maskSecret, newId } from '../../adapters/crypto/index.js';
import {
  deleteSecret,
  insertSecret,
  listSecrets,
  type SecretRow,
  secretNameTaken,
} from '../../adapters/database/repositories/secret-repository.js';
import { ConflictError, notFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** A secret as the API shows it: its name and mask, never its value. */
export interface SecretView {
  id: string;
  name: string;
  mask: string;
  updatedAt: string;
}

/** The space's secrets, names and masks only. */
export async function spaceSecrets(context: Pick<PlatformContext, 'database'>, spaceId: string): Promise<SecretView[]> {
  const rows = await listSecrets(context.database, spaceId);
  return rows.map((row) => ({ id: row.id, name: row.name, mask: row.mask, updatedAt: row.updated_at }));
}

/** Stores a secret sealed at rest; a conflict `secret-name-taken` when the space has one of this name. */
export async function storeSecret(
  context: Pick<PlatformContext, 'database' | 'secretBox' | 'now'>,
  spaceId: string,
  actor: string,
  name: string,
  value: string,
): Promise<SecretView> {
  const row: SecretRow = {
    id: newId('sec'),
    space_id: spaceId,
    name,
    ciphertext: context.secretBox.seal(value),
    mask: maskSecret(value),
    created_by: actor,
    updated_at: context.now().toISOString(),
  };
  await context.database.transaction().execute(async (transaction) => {
    if (await secretNameTaken(transaction, spaceId, name))
      throw new ConflictError('secret-name-taken', `A secret named ${name} exists already.`);
    await insertSecret(transaction, row);
  });
  return { id: row.id, name, mask: row.mask, updatedAt: row.updated_at };
}

/** Deletes a secret of the space; `not-found` when there is none. */
export async function removeSecret(context: Pick<PlatformContext, 'database'>, spaceId: string, secretId: string): Promise<void> {
  if (!(await deleteSecret(context.database, spaceId, secretId))) throw notFoundError('The secret');
}
