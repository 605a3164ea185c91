import { AgentLoomError, hasErrorCode } from './agentloom-error.js';

/** An answer named an elicitation (an MCP server's question) the run never asked: nothing is written. */
export class ElicitationNotFoundError extends AgentLoomError {
  readonly runId: string;
  readonly elicitationId: string;

  constructor(runId: string, elicitationId: string) {
    super('elicitation-not-found', `Run ${runId} has no elicitation ${elicitationId}.`);
    this.runId = runId;
    this.elicitationId = elicitationId;
  }

  static override isInstance(error: unknown): error is ElicitationNotFoundError {
    return hasErrorCode(error, 'elicitation-not-found');
  }
}

/**
 * The run no longer waits for this elicitation: it already has its answer (a person's, or the
 * timeout's `cancel`), or the call that asked it has ended (after a crash its outcome is
 * `unknown`, X-7). Exactly one answer is taken; this one is not used.
 */
export class ElicitationNotPendingError extends AgentLoomError {
  readonly runId: string;
  readonly elicitationId: string;
  /** Why: `answered` (an answer was taken first) or `call-ended` (the asking call has its outcome). */
  readonly why: 'answered' | 'call-ended';

  constructor(runId: string, elicitationId: string, why: 'answered' | 'call-ended') {
    super(
      'elicitation-not-pending',
      why === 'answered'
        ? `Elicitation ${elicitationId} of run ${runId} already has its answer; exactly one answer is taken.`
        : `The call that asked elicitation ${elicitationId} of run ${runId} has ended; the question can no longer be answered.`,
    );
    this.runId = runId;
    this.elicitationId = elicitationId;
    this.why = why;
  }

  static override isInstance(error: unknown): error is ElicitationNotPendingError {
    return hasErrorCode(error, 'elicitation-not-pending');
  }
}

/** An accepted answer whose content does not match the requested schema: nothing is written. */
export class InvalidElicitationAnswerError extends AgentLoomError {
  readonly runId: string;
  readonly elicitationId: string;
  readonly problems: readonly { path: (string | number)[]; message: string }[];

  constructor(runId: string, elicitationId: string, problems: readonly { path: (string | number)[]; message: string }[]) {
    super(
      'invalid-elicitation-answer',
      `The answer to elicitation ${elicitationId} of run ${runId} is invalid: ${problems.map((problem) => `${problem.path.join('.') || '(content)'} ${problem.message}`).join('; ')}`,
    );
    this.runId = runId;
    this.elicitationId = elicitationId;
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is InvalidElicitationAnswerError {
    return hasErrorCode(error, 'invalid-elicitation-answer');
  }
}
