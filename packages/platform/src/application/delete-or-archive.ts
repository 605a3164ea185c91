import type { Transaction } from 'kysely';
import { isReferenced } from '../adapters/database/repositories/resource-repository.js';
import type { PlatformDatabase } from '../adapters/database/schema.js';
import type { PlatformContext } from './context.js';

/** A repository's update of one row, enough to archive it. */
type ArchiveWrite = (
  transaction: Transaction<PlatformDatabase>,
  id: string,
  changes: { state: 'archived'; updated_at: string },
) => Promise<void>;

/**
 * Deletes a shared thing of a space (a resource, a model connection), or archives it when an app
 * or a release references it, so that a release never loses what it pins: answers true when it
 * was archived. The check and the write run in one transaction, so a reference made meanwhile
 * cannot slip between them. `update` and `remove` are the thing's repository writes.
 */
export function deleteOrArchive(
  context: Pick<PlatformContext, 'database' | 'now'>,
  kind: 'resource' | 'model-connection',
  id: string,
  update: ArchiveWrite,
  remove: (transaction: Transaction<PlatformDatabase>, id: string) => Promise<void>,
): Promise<boolean> {
  return context.database.transaction().execute(async (transaction) => {
    if (await isReferenced(transaction, kind, id)) {
      await update(transaction, id, { state: 'archived', updated_at: context.now().toISOString() });
      return true;
    }
    await remove(transaction, id);
    return false;
  });
}
