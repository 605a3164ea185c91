import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** A new run id. Callers that want to resume later should keep it (or choose their own). */
export function createRunId(): string {
  return `run_${randomUUID()}`;
}

/**
 * A new owner id for one executor of one run in this process. It names the machine and process
 * so that an `owned-elsewhere` answer says who holds the run.
 */
export function createOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
