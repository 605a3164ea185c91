import type { Queryable } from '../../adapters/database/queryable.js';
import { findReleaseSnapshotText } from '../../adapters/database/repositories/release-repository.js';
import { parseReleaseSnapshot } from '../../domain/release-snapshot.js';
import { type RunRequirements, releaseNeedsIsolation } from '../../domain/run-requirements.js';

/** How many releases' requirements are kept (least recently used dropped first). */
const cachedReleases = 256;

/**
 * The requirements of recently started releases. A release is immutable (its id names one frozen
 * snapshot), so what it needs never changes: every run of an app read and parsed the same
 * snapshot again at enqueue (issue 34: 3–4 % of a run's creation).
 */
const requirementsByRelease = new Map<string, RunRequirements>();

/** What a run of the release `releaseId` needs from its worker; nothing when there is no release yet. */
export async function requirementsOfRelease(database: Queryable, releaseId: string | null): Promise<RunRequirements> {
  if (releaseId === null) return { isolation: false };
  const cached = requirementsByRelease.get(releaseId);
  if (cached) {
    requirementsByRelease.delete(releaseId);
    requirementsByRelease.set(releaseId, cached);
    return cached;
  }
  const text = await findReleaseSnapshotText(database, releaseId);
  // Not found (yet): nothing to cache.
  if (text === undefined) return { isolation: false };
  const snapshot = parseReleaseSnapshot(text);
  // Not yet for workflows: the agent releases a workflow pins are not inspected here.
  const requirements = { isolation: snapshot.kind === 'agent' && releaseNeedsIsolation(snapshot) };
  requirementsByRelease.set(releaseId, requirements);
  if (requirementsByRelease.size > cachedReleases)
    requirementsByRelease.delete(requirementsByRelease.keys().next().value as string);
  return requirements;
}
