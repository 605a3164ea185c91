import { readDraftRow } from '../../adapters/database/repositories/draft-repository.js';
import { findRelease } from '../../adapters/database/repositories/release-repository.js';
import type { AppRow } from '../../adapters/database/schema.js';
import { InvalidRequestError, NotFoundError, ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { type DraftView, saveDraft } from './draft-service.js';

/**
 * Copies a release's draft back into the app's draft (PLATFORM.md §4.4
 * `POST /apps/{appId}/draft/restore`, issue 36): the draft the release was published from, saved
 * as a new revision exactly like a save (parsed for the app's kind, references replaced, one
 * transaction). `ifMatch` is optional: with it, a draft changed since it was read is not
 * overwritten (412 `stale-revision`). Refusals: no such release (404 `release-not-found`), a
 * release published before releases kept their draft (422 `release-without-draft`), a kept draft
 * the current schema no longer reads (422 `release-draft-outdated`).
 */
export async function restoreDraft(
  context: Pick<PlatformContext, 'database' | 'now'>,
  app: AppRow,
  actor: string,
  fromVersion: number,
  ifMatch: string | undefined,
): Promise<DraftView> {
  const release = await findRelease(context.database, app.id, fromVersion);
  if (release?.kind !== 'release')
    throw new NotFoundError('release-not-found', `The app has no release ${fromVersion}.`, { fromVersion });
  if (release.draft_config === null)
    throw new ValidationError('release-without-draft', 'This release was published before releases kept their draft.', {
      fromVersion,
    });
  const current = ifMatch ?? `"${(await readDraftRow(context.database, app.id)).revision}"`;
  try {
    return await saveDraft(context, app, actor, current, JSON.parse(release.draft_config));
  } catch (error) {
    if (error instanceof InvalidRequestError && error.code === 'invalid-request')
      throw new ValidationError('release-draft-outdated', 'The draft of this release no longer matches the draft schema.', {
        fromVersion,
        ...error.details,
      });
    throw error;
  }
}
