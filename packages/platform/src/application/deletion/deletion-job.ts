import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppDeletionRow, AppDeletionStep } from '../../adapters/database/schema.js';
import {
  type DeletionContext,
  DeletionLeaseLostError,
  deleteAppFiles,
  deleteSdkRuns,
  removeAppRows,
  type StepContext,
  stopAndSettleRuns,
} from './deletion-steps.js';

/** The steps in order; each one is idempotent, so a job resumed after a crash simply repeats its current step. */
const nextStep: Record<Exclude<AppDeletionStep, 'done'>, AppDeletionStep> = {
  'stopping-runs': 'deleting-runs',
  'deleting-runs': 'deleting-files',
  'deleting-files': 'removing-app',
  'removing-app': 'done',
};

/** The deletion jobs this process works on now, per platform (so `close` can end them). */
const activeJobs = new WeakMap<DeletionContext, Map<string, { abort: AbortController; done: Promise<void> }>>();
/** One id per process: a job whose lease names another id is someone else's until the lease passes. */
const processId = `deleter_${hostname()}_${process.pid}_${randomUUID().slice(0, 8)}`;

function jobsOf(services: DeletionContext) {
  let jobs = activeJobs.get(services);
  if (!jobs) {
    jobs = new Map();
    activeJobs.set(services, jobs);
  }
  return jobs;
}

/**
 * Works on a deletion in the background of this process unless it already does; errors are
 * logged and left to the next resumption. Answers at once.
 */
export function startDeletionJob(services: DeletionContext, deletionId: string): void {
  const jobs = jobsOf(services);
  if (jobs.has(deletionId)) return;
  const abort = new AbortController();
  const done = runDeletionJob(services, deletionId, abort.signal)
    .catch((error: unknown) => {
      services.logger.warn({ deletionId, err: { message: (error as Error).message } }, 'app deletion interrupted');
    })
    .finally(() => jobs.delete(deletionId));
  jobs.set(deletionId, { abort, done });
}

/** Stops working on this platform's deletion jobs (their leases hand them to another process) and waits for them. */
export async function stopDeletionJobs(services: DeletionContext): Promise<void> {
  const jobs = [...jobsOf(services).values()];
  for (const job of jobs) job.abort.abort();
  await Promise.allSettled(jobs.map((job) => job.done));
}

/**
 * Continues every unfinished deletion nobody holds (never claimed, or its process died and the
 * lease passed): called by the sweeper, so a deletion survives the death of the process doing it.
 */
export async function resumeAppDeletions(services: DeletionContext): Promise<string[]> {
  const at = services.now().toISOString();
  const open = await services.database
    .selectFrom('app_deletions')
    .select('id')
    .where('step', '!=', 'done')
    .where((where) => where.or([where('lease_until', 'is', null), where('lease_until', '<', at)]))
    .execute();
  for (const { id } of open) startDeletionJob(services, id);
  return open.map((row) => row.id);
}

/**
 * Runs one deletion to its end under a lease in `app_deletions` (renewed every third of
 * `runLeaseMs`): claims it (only if nobody holds it), then performs its current step and every
 * later one, recording each step before the next begins. Another process can claim it once the
 * lease has passed, so a crash anywhere leaves a job that the sweeper continues; every write of
 * a step is fenced by the lease holder's id.
 */
export async function runDeletionJob(services: DeletionContext, deletionId: string, signal?: AbortSignal): Promise<void> {
  const { database, config } = services;
  const workerId = `${processId}_${randomUUID().slice(0, 6)}`;
  const leaseUntil = () => new Date(services.now().getTime() + config.runLeaseMs).toISOString();
  const at = services.now().toISOString();
  const claimed = await database
    .updateTable('app_deletions')
    .set((update) => ({ worker_id: workerId, lease_until: leaseUntil(), attempts: update('attempts', '+', 1), updated_at: at }))
    .where('id', '=', deletionId)
    .where('step', '!=', 'done')
    .where((where) => where.or([where('lease_until', 'is', null), where('lease_until', '<', at)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return;
  let lost = false;
  const renewal = setInterval(
    () => {
      database
        .updateTable('app_deletions')
        .set({ lease_until: leaseUntil() })
        .where('id', '=', deletionId)
        .where('worker_id', '=', workerId)
        .executeTakeFirst()
        .then((result) => {
          if (Number(result.numUpdatedRows) !== 1) lost = true;
        })
        .catch(() => {});
    },
    Math.max(100, Math.floor(config.runLeaseMs / 3)),
  );
  const assertOwned = () => {
    if (lost || signal?.aborted) throw new DeletionLeaseLostError(deletionId);
  };
  try {
    for (;;) {
      const deletion = await database
        .selectFrom('app_deletions')
        .selectAll()
        .where('id', '=', deletionId)
        .executeTakeFirstOrThrow();
      if (deletion.step === 'done') return;
      const context: StepContext = { services, deletion, assertOwned };
      services.logger.info({ deletionId, appId: deletion.app_id, step: deletion.step }, 'app deletion step');
      await performStep(context, deletion, workerId);
      if (deletion.step === 'removing-app') return;
      assertOwned();
      const advanced = await database
        .updateTable('app_deletions')
        .set({ step: nextStep[deletion.step], updated_at: services.now().toISOString() })
        .where('id', '=', deletionId)
        .where('worker_id', '=', workerId)
        .where('step', '=', deletion.step)
        .executeTakeFirst();
      if (Number(advanced.numUpdatedRows) !== 1) throw new DeletionLeaseLostError(deletionId);
    }
  } catch (error) {
    if (!(error instanceof DeletionLeaseLostError)) {
      await database
        .updateTable('app_deletions')
        .set({ last_error: (error as Error).message.slice(0, 2000), updated_at: services.now().toISOString() })
        .where('id', '=', deletionId)
        .execute()
        .catch(() => {});
    }
    throw error;
  } finally {
    clearInterval(renewal);
    // Hand the job back at once (a crash instead lets the lease run out).
    await database
      .updateTable('app_deletions')
      .set({ worker_id: null, lease_until: null })
      .where('id', '=', deletionId)
      .where('worker_id', '=', workerId)
      .execute()
      .catch(() => {});
  }
}

async function performStep(context: StepContext, deletion: AppDeletionRow, workerId: string): Promise<void> {
  switch (deletion.step) {
    case 'stopping-runs':
      return stopAndSettleRuns(context);
    case 'deleting-runs':
      return deleteSdkRuns(context);
    case 'deleting-files':
      return deleteAppFiles(context);
    case 'removing-app':
      if (!(await removeAppRows(context, workerId))) throw new DeletionLeaseLostError(deletion.id);
      return;
    case 'done':
      return;
  }
}
