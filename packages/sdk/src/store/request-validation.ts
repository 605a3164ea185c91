import { InvalidRunRequestError } from '../core/errors/index.js';
import { assertIdentifier } from '../core/ids.js';
import type { AcquireRequest, AppendRequest, ReadJournalOptions, ReadSessionRequest } from './run-store.js';

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

/**
 * Checks `checkpointThrough` of an append (ADR 0012): only with a terminal and a digest, naming
 * a valid id. Whether it names an earlier run of the same session is checked by the store.
 */
export function assertCheckpointThrough(request: AppendRequest): void {
  const through = request.checkpointThrough;
  if (through === undefined) return;
  assertIdentifier('runId', through);
  if (!request.terminal || request.digest === undefined) {
    throw new InvalidRunRequestError(request.runId, 'checkpointThrough is accepted only with a terminal result and a digest.');
  }
}

/** The refusal of a `checkpointThrough` that is not an earlier run of the same session. */
export function notAnEarlierRun(request: AppendRequest): InvalidRunRequestError {
  return new InvalidRunRequestError(
    request.runId,
    `checkpointThrough ${String(request.checkpointThrough)} is not a run of the same session created before ${request.runId}.`,
  );
}

/** Checks the arguments of `readSession`: valid ids, a known kind, a non-negative `recentFinished`. */
export function assertReadSession(request: ReadSessionRequest): void {
  assertIdentifier('sessionId', request?.sessionId);
  if (request.exceptRunId !== undefined) assertIdentifier('runId', request.exceptRunId);
  for (const runId of request.journalsOf ?? []) assertIdentifier('runId', runId);
  if (request.kind !== undefined && request.kind !== 'agent' && request.kind !== 'workflow') {
    throw new InvalidRunRequestError(request.sessionId, `kind must be 'agent' or 'workflow', not ${String(request.kind)}.`);
  }
  const after = request.afterCheckpoint;
  if (after !== undefined && after !== true) assertIdentifier('runId', after);
  const recent = request.recentFinished;
  if (recent !== undefined && !(Number.isInteger(recent) && recent >= 0)) {
    throw new InvalidRunRequestError(request.sessionId, `recentFinished must be a non-negative integer, not ${String(recent)}.`);
  }
}
