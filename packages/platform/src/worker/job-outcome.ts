import { RunDetachedError, RunNotFoundError, RunOwnedElsewhereError } from '@agentloom/sdk';
import type { ClaimedJob } from '../adapters/dispatch/index.js';
import type { RunRequirements } from '../domain/run-requirements.js';

/** A job of an app being deleted whose run has no stop request yet: handed back until the deletion stops it. */
export class AppDeletingError extends Error {
  constructor(appId: string) {
    super(`The app ${appId} is being deleted.`);
    this.name = 'AppDeletingError';
  }
}

/** A job claimed while the worker drains: handed back at once, never started here. */
export class WorkerDrainingError extends Error {
  constructor(workerId: string) {
    super(`The worker ${workerId} is draining.`);
    this.name = 'WorkerDrainingError';
  }
}

/**
 * The run's release needs what this worker lacks (a release published after the run was
 * enqueued added `run_command`): the job goes back with the new requirements for a worker that
 * has them (NOT-18).
 */
export class MissingCapabilityError extends Error {
  constructor(readonly requirements: RunRequirements) {
    super('The run needs a worker that can isolate commands (bubblewrap).');
    this.name = 'MissingCapabilityError';
  }
}

/** What the worker does with a job whose run did not end normally. */
export type JobAction =
  | { kind: 'complete'; log?: LogLine }
  | { kind: 'release'; notBefore: Date; requirements?: RunRequirements; log?: LogLine };

/** A line the worker logs with the action (with the worker and run ids added). */
export interface LogLine {
  level: 'info' | 'warn';
  message: string;
  fields?: Record<string, unknown>;
}

/** The clocks an action is timed by: the platform's (replaceable) and the process's. */
export interface JobClock {
  now: Date;
  wallMs: number;
}

/**
 * The error → action table of a run job, first match wins. A hand-over (a drain) is claimable
 * again now; a live owner elsewhere, once its lease ends; a deleted run (a tombstone, P-13.2) is
 * dropped, never retried; an app being deleted waits a lease for its deletion to stop the run; a
 * release this worker cannot isolate goes back with the new requirements (NOT-18); anything else
 * is retried with an exponential back-off.
 */
const table: ReadonlyArray<{
  matches: (error: unknown) => boolean;
  action: (error: unknown, job: ClaimedJob, clock: JobClock, leaseMs: number) => JobAction;
}> = [
  {
    matches: (error) => RunDetachedError.isInstance(error) || error instanceof WorkerDrainingError,
    action: (_error, _job, clock) => ({
      kind: 'release',
      notBefore: clock.now,
      log: { level: 'info', message: 'run handed over' },
    }),
  },
  {
    matches: (error) => error instanceof RunOwnedElsewhereError,
    action: (error) => ({ kind: 'release', notBefore: new Date((error as RunOwnedElsewhereError).leaseExpiresAt + 50) }),
  },
  {
    matches: (error) => error instanceof RunNotFoundError,
    action: () => ({ kind: 'complete', log: { level: 'info', message: 'run deleted; job dropped' } }),
  },
  {
    matches: (error) => error instanceof AppDeletingError,
    action: (_error, _job, clock, leaseMs) => ({ kind: 'release', notBefore: new Date(clock.wallMs + leaseMs) }),
  },
  {
    matches: (error) => error instanceof MissingCapabilityError,
    action: (error, _job, clock) => ({
      kind: 'release',
      notBefore: new Date(clock.wallMs),
      requirements: (error as MissingCapabilityError).requirements,
      log: { level: 'info', message: 'run needs isolation this worker lacks; handed back' },
    }),
  },
];

/** What to do with `job` after its execution threw `error` (pure: the table above, then the back-off). */
export function actionAfterFailure(error: unknown, job: ClaimedJob, clock: JobClock, leaseMs: number): JobAction {
  const rule = table.find((candidate) => candidate.matches(error));
  if (rule) return rule.action(error, job, clock, leaseMs);
  const backoff = Math.min(30_000, 500 * 2 ** Math.min(job.attempt, 6));
  return {
    kind: 'release',
    notBefore: new Date(clock.wallMs + backoff),
    log: {
      level: 'warn',
      message: 'run failed to execute',
      fields: { err: { name: (error as Error).name, message: (error as Error).message } },
    },
  };
}
