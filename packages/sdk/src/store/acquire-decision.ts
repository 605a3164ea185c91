import { InvalidRunRequestError, RunNotFoundError } from '../core/errors/index.js';
import type { AcquireRequest, AcquireResult, CreateRunRequest, RunLabels, RunRecord } from './run-store.js';

/** Labels of a run created without any (a direct `acquire` by older callers and tests). */
export const DEFAULT_LABELS: RunLabels = Object.freeze({ kind: 'agent', name: '', metadata: {} }) as RunLabels;

/**
 * The ownership rule every store applies inside its own transaction, kept in one place so
 * that the adapters cannot drift apart. Given the current row (if any), it returns the outcome
 * and the row as it must be after the call.
 */
export function decideAcquire(current: RunRecord | undefined, request: AcquireRequest, now: number): AcquireResult {
  if (!current) {
    if (request.mustExist) throw new RunNotFoundError(request.runId);
    return {
      outcome: 'created',
      run: {
        runId: request.runId,
        sessionId: request.sessionId,
        ...(request.labels ?? DEFAULT_LABELS),
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
  if (current.status === 'deleted') throw new RunNotFoundError(request.runId, { deleted: true });
  if (current.status !== 'running' && current.status !== 'pending') return { outcome: 'terminal', run: current };
  if (current.ownerId !== null && current.leaseExpiresAt > now) return { outcome: 'owned-elsewhere', run: current };
  return {
    outcome: 'acquired',
    run: {
      ...current,
      status: 'running',
      ownerId: request.ownerId,
      epoch: current.epoch + 1,
      leaseExpiresAt: now + request.leaseMs,
      updatedAt: now,
    },
  };
}

/** The row of a run recorded by `createRun`: pending, unowned, epoch 1 (the first taker gets 2). */
export function pendingRun(request: CreateRunRequest, now: number): RunRecord {
  return {
    runId: request.runId,
    sessionId: request.sessionId,
    ...request.labels,
    status: 'pending',
    ownerId: null,
    epoch: 1,
    leaseExpiresAt: 0,
    deadlineAt: 0,
    loopsUsed: 0,
    lastSequence: request.entries.length,
    createdAt: now,
    updatedAt: now,
  };
}

/** Whether a run may still change (an owner may write, or someone may take it). */
export function isUnfinished(status: RunRecord['status']): boolean {
  return status === 'pending' || status === 'running';
}
