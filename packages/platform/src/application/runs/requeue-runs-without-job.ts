import { releasesOfRuns } from '../../adapters/database/repositories/run-repository.js';
import type { PlatformContext } from '../context.js';
import { requirementsOfRelease } from './run-requirements.js';

/** What the re-enqueue uses. */
export type RequeueContext = Pick<PlatformContext, 'database' | 'runClient' | 'dispatcher' | 'config' | 'now'>;

/** Runs looked at per status and round: the sweep stays bounded however many runs exist. */
const pageSize = 200;

/**
 * Gives a job back to every run of the platform that has not ended in the SDK (`pending` or
 * `running`) but has no job the dispatcher would hand to a worker — its job ended or was lost (a
 * pg-boss job given up, a row removed by hand, a bug): without one no worker would ever take it
 * and it would stay unfinished for ever (issue 36). A run younger than two leases is left alone
 * (its creating transaction may still be committing); the job gets the requirements of the run's
 * release, or of the app's newest release while it is queued. Enqueuing a run that ended in the
 * meantime is harmless: its worker finds it ended and completes the job (the queue never has to
 * be exact, ADR 0007). Answers the run ids given a job.
 */
export async function requeueRunsWithoutJob(services: RequeueContext): Promise<string[]> {
  const { database, runClient, dispatcher } = services;
  const settledBefore = services.now().getTime() - 2 * services.config.runLeaseMs;
  const candidates: string[] = [];
  for (const status of ['pending', 'running'] as const) {
    const page = await runClient.listRuns({ status, limit: pageSize });
    for (const run of page.items) if (run.createdAt < settledBefore) candidates.push(run.runId);
  }
  if (candidates.length === 0) return [];
  const withJobs = await dispatcher.runsWithJobs(candidates);
  const missing = candidates.filter((runId) => !withJobs.has(runId));
  if (missing.length === 0) return [];
  const requeued: string[] = [];
  // Only the platform's own runs (the SDK store may hold runs of other hosts).
  for (const { runId, releaseId } of await releasesOfRuns(database, missing)) {
    await database.transaction().execute(async (transaction) => {
      await dispatcher.enqueue(transaction, runId, await requirementsOfRelease(transaction, releaseId));
    });
    requeued.push(runId);
  }
  if (requeued.length > 0) dispatcher.announce();
  return requeued;
}
