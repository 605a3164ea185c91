import { InvalidRunRequestError } from '../core/errors/index.js';
import type { AcquireRequest, AcquireResult, RunRecord } from './run-store.js';

/**
 * The ownership rule every store applies inside its own transaction, kept in one place so
 * that the adapters cannot drift apart. Given the current row (if any), it returns the outcome
 * and the row as it must be after the call.
 */
export function decideAcquire(current: RunRecord | undefined, request: AcquireRequest, now: number): AcquireResult {
  if (!current) {
    return {
      outcome: 'created',
      run: {
        runId: request.runId,
        sessionId: request.sessionId,
        status: 'running',
        ownerId: request.ownerId,
        epoch: 1,
        leaseExpiresAt: now + request.leaseMs,
        deadlineAt: request.deadlineAt,
        loopsUsed: 0,
        lastSequence: request.initialEntries.length,
        createdAt: now,
        updatedAt: now,
      },
    };
  }
  if (current.sessionId !== request.sessionId) {
    throw new InvalidRunRequestError(
      request.runId,
      `Run ${request.runId} belongs to session ${current.sessionId}, not ${request.sessionId}.`,
    );
  }
  if (current.status !== 'running') return { outcome: 'terminal', run: current };
  if (current.ownerId !== null && current.leaseExpiresAt > now) return { outcome: 'owned-elsewhere', run: current };
  return {
    outcome: 'acquired',
    run: {
      ...current,
      ownerId: request.ownerId,
      epoch: current.epoch + 1,
      leaseExpiresAt: now + request.leaseMs,
      updatedAt: now,
    },
  };
}
