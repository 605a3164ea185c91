import { RunNotActiveError, RunNotFoundError } from '@agentloom/sdk';
import { newestRunsOnOtherReleases, recordStopCause } from '../../adapters/database/repositories/run-repository.js';
import type { AppReleaseRow, AppRow } from '../../adapters/database/schema.js';
import type { PlatformContext } from '../context.js';
import { nudgeWebhook } from '../webhooks/index.js';

/** What stopping runs uses: the run index, the SDK store and client, the clock (webhook nudges). */
export type StopContext = Pick<PlatformContext, 'database' | 'runClient' | 'runStore' | 'now'>;

/**
 * Asks a run to stop through the SDK (a durable journal entry any owner honours, D-P10) and
 * records the platform's cause. Works with no client attached and whatever the run's state: a
 * queued run ends at once, an orphaned run stops when it is taken over. Idempotent: asking an
 * ended run answers false.
 */
export async function stopRun(
  services: StopContext,
  runId: string,
  cause: 'user' | 'release-published' | 'app-deleted',
  requestedBy: string,
): Promise<boolean> {
  await recordStopCause(services.database, runId, cause);
  try {
    await services.runClient.requestStop(runId, { reason: cause, requestedBy });
    // A queued run ends at once: its completion webhook is due now.
    await nudgeWebhook(services, runId);
    return true;
  } catch (error) {
    if (error instanceof RunNotActiveError || error instanceof RunNotFoundError) return false;
    throw error;
  }
}

/**
 * Publishing interrupts the app's runs in progress (P-6.3, PLATFORM.md §4.5): every unfinished
 * run already pinned to an older release is stopped with cause `release-published`; queued runs
 * not yet pinned are left alone and start on the new release (D-P5). Sessions and their history
 * stay. Answers the stopped run ids.
 */
export async function stopRunsOfOlderReleases(
  services: StopContext,
  app: AppRow,
  release: AppReleaseRow,
  requestedBy: string,
): Promise<string[]> {
  // Only a session's newest run can be unfinished (one active run per session, S-2); the SDK
  // store says whether it is (P-11.9), whichever dispatcher carried it.
  const candidates = await newestRunsOnOtherReleases(services.database, app.id, release.id);
  const stopped: string[] = [];
  for (const id of candidates) {
    const stored = await services.runStore.getRun(id);
    if (stored?.status !== 'pending' && stored?.status !== 'running') continue;
    if (await stopRun(services, id, 'release-published', requestedBy)) stopped.push(id);
  }
  return stopped;
}
