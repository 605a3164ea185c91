import type { Kysely, Transaction } from 'kysely';
import type { PlatformDatabase } from '../database/schema.js';
import type { AgentReleaseSnapshot } from '../domain/release-snapshot.js';
import type { RunRequirements } from './dispatcher.js';
import type { WorkerCapabilities } from './worker-capabilities.js';

/**
 * True when an agent of this release runs commands: some role has the `run_command` built-in,
 * which the assembly gives a bubblewrap sandbox (NOT-18), so only a worker that can isolate may
 * execute it.
 */
export function releaseNeedsIsolation(snapshot: AgentReleaseSnapshot): boolean {
  return [snapshot.entry, ...snapshot.executors].some((role) => role.builtIn.includes('run_command'));
}

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
  const snapshot = JSON.parse(release.config_snapshot) as AgentReleaseSnapshot | { kind: 'workflow' };
  // Not yet for workflows: the agent releases a workflow pins are not inspected here.
  if (snapshot.kind !== 'agent') return { isolation: false };
  return { isolation: releaseNeedsIsolation(snapshot) };
}

/** Whether a worker with `capabilities` may execute a run that needs `requirements`. */
export function capabilitiesMeet(capabilities: WorkerCapabilities, requirements: RunRequirements): boolean {
  return capabilities.isolation || !requirements.isolation;
}
