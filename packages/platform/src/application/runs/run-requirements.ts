import type { Kysely, Transaction } from 'kysely';
import type { PlatformDatabase } from '../../adapters/database/schema.js';
import { parseReleaseSnapshot } from '../../domain/release-snapshot.js';
import { type RunRequirements, releaseNeedsIsolation } from '../../domain/run-requirements.js';

/** What a run of the release `releaseId` needs from its worker; nothing when there is no release yet. */
export async function requirementsOfRelease(
  database: Kysely<PlatformDatabase> | Transaction<PlatformDatabase>,
  releaseId: string | null,
): Promise<RunRequirements> {
  if (releaseId === null) return { isolation: false };
  const release = await database
    .selectFrom('app_releases')
    .select('config_snapshot')
    .where('id', '=', releaseId)
    .executeTakeFirst();
  if (!release) return { isolation: false };
  const snapshot = parseReleaseSnapshot(release.config_snapshot);
  // Not yet for workflows: the agent releases a workflow pins are not inspected here.
  if (snapshot.kind !== 'agent') return { isolation: false };
  return { isolation: releaseNeedsIsolation(snapshot) };
}
