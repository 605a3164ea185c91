import { newId } from '../../adapters/crypto/index.js';
import {
  deleteSpace,
  insertSpaceWithOwner,
  listSpacesOfUser,
  renameSpace,
  tablesHoldingRowsOf,
} from '../../adapters/database/repositories/space-repository.js';
import type { SpaceRow } from '../../adapters/database/schema.js';
import { ConflictError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** The spaces the user is a member of, each with the user's role. */
export function spacesOfUser(context: Pick<PlatformContext, 'database'>, userId: string) {
  return listSpacesOfUser(context.database, userId);
}

/** Creates a space; its creator becomes its owner. */
export async function createSpace(context: Pick<PlatformContext, 'database' | 'now'>, userId: string, name: string) {
  const row: SpaceRow = {
    id: newId('spc'),
    name,
    state: 'active',
    created_by: userId,
    created_at: context.now().toISOString(),
    demo: 0,
  };
  await context.database.transaction().execute((transaction) => insertSpaceWithOwner(transaction, row, userId));
  return row;
}

/** Renames a space. */
export function renameSpaceTo(context: Pick<PlatformContext, 'database'>, spaceId: string, name: string): Promise<void> {
  return renameSpace(context.database, spaceId, name);
}

/** Deletes an empty space; one with apps, resources or connections is refused (a conflict `space-not-empty`). */
export async function deleteEmptySpace(context: Pick<PlatformContext, 'database'>, spaceId: string): Promise<void> {
  await context.database.transaction().execute(async (transaction) => {
    const used = await tablesHoldingRowsOf(transaction, spaceId);
    if (used.length > 0)
      throw new ConflictError('space-not-empty', 'Delete the space’s apps, resources and model connections first.', {
        holds: used,
      });
    await deleteSpace(transaction, spaceId);
  });
}
