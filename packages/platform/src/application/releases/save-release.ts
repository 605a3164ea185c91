import type { Queryable } from '../../adapters/database/queryable.js';
import { insertRelease, markLatestRelease } from '../../adapters/database/repositories/release-repository.js';
import type { AppReleaseRow } from '../../adapters/database/schema.js';
import { ConflictError } from '../../domain/errors.js';

/**
 * Saves a release inside the publish's transaction, and, when `latest`, makes it the app's newest.
 * Two publishes of one app at once both read the same newest version: the second insert is refused
 * by the unique key, which is this `publish-conflict` (the caller may try again).
 */
export async function saveRelease(
  transaction: Queryable,
  release: AppReleaseRow,
  { latest }: { latest: boolean },
): Promise<void> {
  if (!(await insertRelease(transaction, release)))
    throw new ConflictError('publish-conflict', 'Another publish of this app happened at the same time; try again.');
  if (latest) await markLatestRelease(transaction, release);
}
