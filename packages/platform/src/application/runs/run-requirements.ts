import type { Queryable } from '../../adapters/database/queryable.js';
import { findReleaseSnapshotText } from '../../adapters/database/repositories/release-repository.js';
import { parseReleaseSnapshot } from '../../domain/release-snapshot.js';
import { type RunRequirements, releaseNeedsIsolation } from '../../domain/run-requirements.js';

/** What a run of the release `releaseId` needs from its worker; nothing when there is no release yet. */
export async function requirementsOfRelease(database: Queryable, releaseId: string | null): Promise<RunRequirements> {
  if (releaseId === null) return { isolation: false };
  const text = await findReleaseSnapshotText(database, releaseId);
  if (text === undefined) return { isolation: false };
  const snapshot = parseReleaseSnapshot(text);
  // Not yet for workflows: the agent releases a workflow pins are not inspected here.
  if (snapshot.kind !== 'agent') return { isolation: false };
  return { isolation: releaseNeedsIsolation(snapshot) };
}
