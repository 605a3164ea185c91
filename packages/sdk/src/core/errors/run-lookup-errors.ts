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

/** An answer named no input the run is waiting for, or the run waits for none (issue 36): nothing is written. */
export class InputNotFoundError extends AgentLoomError {
  readonly runId: string;
  readonly interruptId: string | undefined;

  constructor(runId: string, interruptId: string | undefined, detail?: string) {
    super(
      'input-not-found',
      detail ?? (interruptId ? `Run ${runId} waits for no input ${interruptId}.` : `Run ${runId} waits for no input.`),
    );
    this.runId = runId;
    this.interruptId = interruptId;
  }

  static override isInstance(error: unknown): error is InputNotFoundError {
    return hasErrorCode(error, 'input-not-found');
  }
}

/**
 * An answer to an input that already has one (issue 36): exactly one answer is taken, the first in
 * the journal's order (another person's, or the recorded timeout outcome); this one is not used.
 */
export class InputAlreadyAnsweredError extends AgentLoomError {
  readonly runId: string;
  readonly interruptId: string;
  /** Whether the answer that was taken is the input's timeout outcome. */
  readonly timedOut: boolean;

  constructor(runId: string, interruptId: string, timedOut: boolean) {
    super(
      'input-already-answered',
      timedOut
        ? `Input ${interruptId} of run ${runId} timed out: its timeout outcome was recorded first.`
        : `Input ${interruptId} of run ${runId} was already answered; exactly one answer is taken.`,
    );
    this.runId = runId;
    this.interruptId = interruptId;
    this.timedOut = timedOut;
  }

  static override isInstance(error: unknown): error is InputAlreadyAnsweredError {
    return hasErrorCode(error, 'input-already-answered');
  }
}

/** An answer that does not match the input's JSON Schema or choices (issue 36): nothing is written. */
export class InvalidInputAnswerError extends AgentLoomError {
  readonly runId: string;
  readonly interruptId: string;
  readonly problems: readonly { path: (string | number)[]; message: string }[];

  constructor(runId: string, interruptId: string, problems: readonly { path: (string | number)[]; message: string }[]) {
    super(
      'invalid-input-answer',
      `The answer to input ${interruptId} of run ${runId} is invalid: ${problems.map((problem) => `${problem.path.join('.') || '(answer)'} ${problem.message}`).join('; ')}`,
    );
    this.runId = runId;
    this.interruptId = interruptId;
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is InvalidInputAnswerError {
    return hasErrorCode(error, 'invalid-input-answer');
  }
}
