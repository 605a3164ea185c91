import type { PlatformContext } from '../application/context.js';
import { type DeletionContext, resumeAppDeletions } from '../application/deletion/index.js';
import { type RequeueContext, requeueRunsWithoutJob } from '../application/runs/requeue-runs-without-job.js';
import { sweepRunDirectories } from './sweep-run-directories.js';

/** What the sweeper uses: the dispatcher (expired leases), and what the deletions and the directory sweep use. */
export type SweeperContext = Pick<PlatformContext, 'dispatcher'> & DeletionContext & RequeueContext;

/**
 * The sweeper (PLATFORM.md §4.6): puts jobs whose worker stopped renewing back in the queue, so a
 * dead worker's runs are visibly re-queued even before a worker's claim would pick them up, and
 * logs each one; gives a job back to unfinished runs that have none (their job ended or was lost,
 * `requeueRunsWithoutJob`); removes the temporary work directories of runs that settled while their worker
 * died (P-12.8); and continues app deletions nobody holds (P-13: a deletion whose process died
 * is finished by another one, at start and then every round). Runs every lease period; answers
 * a function that stops it.
 */
export function startSweeper(services: SweeperContext, intervalMs = services.config.runLeaseMs): () => void {
  const resume = () =>
    resumeAppDeletions(services).catch((error: unknown) =>
      services.logger.warn({ err: { message: (error as Error).message } }, 'resuming app deletions failed'),
    );
  void resume();
  const timer = setInterval(() => {
    void resume();
    sweepRunDirectories(services).then(
      (runIds) => {
        for (const runId of runIds) services.logger.info({ runId }, 'settled run directory removed');
      },
      (error: unknown) => services.logger.warn({ err: { message: (error as Error).message } }, 'run directory sweep failed'),
    );
    services.dispatcher.sweep().then(
      (runIds) => {
        for (const runId of runIds) services.logger.info({ runId }, 'lease expired; run re-queued');
      },
      (error: unknown) => services.logger.warn({ err: { message: (error as Error).message } }, 'sweep failed'),
    );
    requeueRunsWithoutJob(services).then(
      (runIds) => {
        for (const runId of runIds) services.logger.warn({ runId }, 'unfinished run had no job; re-enqueued');
      },
      (error: unknown) => services.logger.warn({ err: { message: (error as Error).message } }, 'run re-enqueue failed'),
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
