import type { Failure } from '../failure.js';
import { AgentLoomError, hasErrorCode } from './agentloom-error.js';

/**
 * One failed model attempt, as raised by a `LanguageModel` adapter or the stream assembler.
 * `failure` is the typed classification the retry policy reads; `partialText` keeps
 * what the attempt produced before failing, which is recorded as incomplete and never delivered
 * as an answer (S-9).
 */
export class ModelCallError extends AgentLoomError {
  readonly failure: Failure;
  readonly partialText: string | undefined;

  constructor(failure: Failure, options?: { cause?: unknown; partialText?: string }) {
    super('model-call-failed', `Model call failed (${failure.kind}): ${failure.message}`, options);
    this.failure = failure;
    this.partialText = options?.partialText;
  }

  static override isInstance(error: unknown): error is ModelCallError {
    return hasErrorCode(error, 'model-call-failed');
  }
}
