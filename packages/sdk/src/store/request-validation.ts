import { InvalidRunRequestError } from '../core/errors/index.js';
import { assertIdentifier } from '../core/ids.js';
import type { AcquireRequest, ReadJournalOptions } from './run-store.js';

/**
 * Checks what every store checks before it touches its data (issue 18): the same ids are valid
 * on every store (`assertIdentifier`), and a lease is a positive number of milliseconds.
 */
export function assertAcquireRequest(request: AcquireRequest): void {
  assertIdentifier('runId', request?.runId);
  assertIdentifier('sessionId', request.sessionId);
  assertIdentifier('ownerId', request.ownerId);
  if (!(Number.isInteger(request.leaseMs) && request.leaseMs > 0)) {
    throw new InvalidRunRequestError(request.runId, `leaseMs must be a positive integer, not ${String(request.leaseMs)}.`);
  }
}

/** Checks the arguments of `readJournal`: a valid id, a non-negative `afterSequence`, a positive `limit`. */
export function assertReadJournal(runId: string, options: ReadJournalOptions): void {
  assertIdentifier('runId', runId);
  const { afterSequence, limit } = options ?? {};
  if (afterSequence !== undefined && !(Number.isInteger(afterSequence) && afterSequence >= 0)) {
    throw new InvalidRunRequestError(runId, `afterSequence must be a non-negative integer, not ${String(afterSequence)}.`);
  }
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new InvalidRunRequestError(runId, `limit must be a positive integer, not ${String(limit)}.`);
  }
}
