import type { SignInLimiter, SubjectRows } from '../adapters/identity/index.js';
import type { PlatformContext } from '../application/context.js';
import type { WorkerProcessControl } from '../application/runs/worker-process-control.js';
import type { PlatformMetrics } from './metrics.js';
import type { Principal } from './principal.js';

/**
 * Everything a route needs, built once per server and shared by every request: the application's
 * context plus what only the HTTP app uses (its metrics and the sign-in limits of its auth routes).
 */
export interface PlatformServices extends PlatformContext {
  readonly metrics: PlatformMetrics;
  /** Sign-in limits per account and per client address, shared through the database (P-15.3). */
  readonly signInLimiter: SignInLimiter;
  /**
   * The embedded default's worker process, when `serve` runs one (ADR 0034): what "Crash the
   * worker" kills. Absent in-process (tests) and on PostgreSQL, where workers are processes of
   * their own that the API does not control.
   */
  workerProcesses?: WorkerProcessControl;
}

/** Hono context variables of the platform app. */
export interface PlatformVariables {
  services: PlatformServices;
  principal: Principal | undefined;
  /** What the request's path names, read with its API key (`authentication.ts`); taken once by authorisation. */
  subject: SubjectRows | undefined;
  requestId: string;
}

/** The Hono environment type of every platform sub-app. */
export interface PlatformEnvironment {
  Variables: PlatformVariables;
}
