import { newId } from '../../adapters/crypto/index.js';
import type { Queryable } from '../../adapters/database/queryable.js';
import { readDraftRow } from '../../adapters/database/repositories/draft-repository.js';
import {
  insertRelease,
  markLatestRelease,
  newestReleaseVersion,
} from '../../adapters/database/repositories/release-repository.js';
import { canonicalJson, hashJson } from '../../adapters/database/repositories/resource-repository.js';
import type { AppReleaseRow, AppResourceRefsTable } from '../../adapters/database/schema.js';
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

/** What a release uses ("who uses this"): a resource version, a model connection, an agent app's release. */
export type ReleaseReference = Pick<AppResourceRefsTable, 'target_kind' | 'resource_id' | 'resource_version'>;

/**
 * Publishes `snapshot` as the app's next release and its newest (every app kind publishes this
 * way): the snapshot stored canonically with the draft's schema version and revision, its hash,
 * and the references it pins, all in the caller's transaction.
 */
export async function publishSnapshot(
  transaction: Queryable,
  input: {
    appId: string;
    snapshot: object;
    draftSchemaVersion: number;
    draftRevision: number;
    notes: string;
    interruptRuns: boolean;
    actor: string;
    publishedAt: string;
    references: readonly ReleaseReference[];
  },
): Promise<AppReleaseRow> {
  const release: AppReleaseRow = {
    id: newId('rel'),
    app_id: input.appId,
    version: (await newestReleaseVersion(transaction, input.appId)) + 1,
    kind: 'release',
    config_snapshot: canonicalJson({
      ...input.snapshot,
      draftSchemaVersion: input.draftSchemaVersion,
      draftRevision: input.draftRevision,
    }),
    content_hash: hashJson(input.snapshot),
    notes: input.notes,
    interrupt_runs: input.interruptRuns ? 1 : 0,
    published_by: input.actor,
    published_at: input.publishedAt,
    // The draft as published, for `POST /apps/{appId}/draft/restore` (issue 36); read in this transaction.
    draft_config: (await readDraftRow(transaction, input.appId)).config,
  };
  await saveRelease(transaction, release, { latest: true });
  for (const reference of input.references)
    await transaction
      .insertInto('app_resource_refs')
      .values({ id: newId('ref'), app_id: input.appId, release_id: release.id, ...reference })
      .execute();
  return release;
}
