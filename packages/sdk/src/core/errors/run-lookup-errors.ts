import { AgentLoomError, hasErrorCode } from './agentloom-error.js';

/** No run has this id in the store, or it was deleted (its tombstone answers the same, P-13.2). */
export class RunNotFoundError extends AgentLoomError {
  readonly runId: string;
  /** True when the run existed and was deleted: a late write or a takeover of it is refused. */
  readonly deleted: boolean;

  constructor(runId: string, options: { deleted?: boolean } = {}) {
    super('run-not-found', options.deleted ? `Run ${runId} was deleted.` : `No run ${runId} exists in this store.`);
    this.runId = runId;
    this.deleted = options.deleted ?? false;
  }

  static override isInstance(error: unknown): error is RunNotFoundError {
    return hasErrorCode(error, 'run-not-found');
  }
}

/** `createRun` met a run with this id that was created with another session, kind or input. */
export class RunAlreadyExistsError extends AgentLoomError {
  readonly runId: string;

  constructor(runId: string, detail: string) {
    super('run-already-exists', `Run ${runId} already exists ${detail}; a run id names one run for life (R-3).`);
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is RunAlreadyExistsError {
    return hasErrorCode(error, 'run-already-exists');
  }
}

/**
 * The operation needs a finished run (deleting it), or one without a live owner. Carries the
 * runs that stood in the way, so a host can say which ones to stop first.
 */
export class RunNotFinishedError extends AgentLoomError {
  readonly runIds: readonly string[];

  constructor(runIds: readonly string[], action: string) {
    super('run-not-finished', `Cannot ${action}: run ${runIds.join(', ')} has not finished. Stop it and wait for its end first.`);
    this.runIds = runIds;
  }

  static override isInstance(error: unknown): error is RunNotFinishedError {
    return hasErrorCode(error, 'run-not-finished');
  }
}

/** A decision named an approval the run never requested (K-5): nothing is written. */
export class ApprovalNotFoundError extends AgentLoomError {
  readonly runId: string;
  readonly approvalId: string;

  constructor(runId: string, approvalId: string) {
    super('approval-not-found', `Run ${runId} has no approval ${approvalId}.`);
    this.runId = runId;
    this.approvalId = approvalId;
  }

  static override isInstance(error: unknown): error is ApprovalNotFoundError {
    return hasErrorCode(error, 'approval-not-found');
  }
}
