import {
  ApprovalNotFoundError,
  ElicitationNotFoundError,
  ElicitationNotPendingError,
  InputAlreadyAnsweredError,
  InputNotFoundError,
  InvalidElicitationAnswerError,
  InvalidInputAnswerError,
  InvalidRunRequestError,
  RunNotActiveError,
  RunNotFoundError,
} from '@agentloom/sdk';
import { DomainError, type DomainErrorKind } from '../domain/errors.js';
import { ApiError } from './api-error.js';

/** The statuses the API answers refusals with. */
export type ErrorStatus = ApiError['status'];

/** The wire form of a refusal: `{ error: { code, message, details } }` with its status. */
export interface ErrorAnswer {
  status: ErrorStatus;
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** Each kind of domain refusal and the status it is answered with: the one place they meet. */
export const statusOfKind: Readonly<Record<DomainErrorKind, ErrorStatus>> = {
  'invalid-request': 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'precondition-failed': 412,
  'precondition-required': 428,
  validation: 422,
  'too-large': 413,
  'upstream-failed': 502,
  'upstream-timeout': 504,
};

/** What a refusal says beyond its status and code: a message (else the error's own) and details (else none). */
interface RefusalWords {
  message?: string;
  details?: Record<string, unknown>;
}

/** One row of the SDK refusal table: the SDK error class answered with `status` and `code`. */
function refusal<E extends Error>(
  type: abstract new (...args: never[]) => E,
  status: ErrorStatus,
  code: string,
  words: (error: E) => RefusalWords = () => ({}),
): (error: unknown) => ErrorAnswer | undefined {
  return (error) => {
    if (!(error instanceof type)) return undefined;
    const { message = error.message, details = {} } = words(error);
    return { status, code, message, details };
  };
}

/**
 * The SDK's refusals that reach a route (a run ended, unknown, an approval that does not exist, a
 * run request the SDK refuses), with the status and stable code the API answers them with.
 */
const sdkRefusals: ReadonlyArray<(error: unknown) => ErrorAnswer | undefined> = [
  refusal(RunNotActiveError, 409, 'run-not-active', (error) => ({
    message: 'The run has ended.',
    details: { status: error.status },
  })),
  refusal(ApprovalNotFoundError, 404, 'approval-not-found', () => ({ message: 'The run has no such approval.' })),
  refusal(InputNotFoundError, 404, 'input-not-found'),
  refusal(InputAlreadyAnsweredError, 409, 'input-already-answered', (error) => ({
    details: { interruptId: error.interruptId, timedOut: error.timedOut },
  })),
  refusal(InvalidInputAnswerError, 422, 'invalid-input-answer', (error) => ({
    details: { interruptId: error.interruptId, problems: error.problems },
  })),
  refusal(ElicitationNotFoundError, 404, 'elicitation-not-found'),
  refusal(ElicitationNotPendingError, 409, 'elicitation-not-pending', (error) => ({ details: { why: error.why } })),
  refusal(InvalidElicitationAnswerError, 422, 'invalid-elicitation-answer', (error) => ({
    details: { elicitationId: error.elicitationId, problems: error.problems },
  })),
  refusal(RunNotFoundError, 404, 'not-found', () => ({ message: 'The run was not found.' })),
  refusal(InvalidRunRequestError, 422, 'invalid-run-request'),
];

/**
 * The answer to a thrown error: an `ApiError` of a route as it is, a domain error by its kind, an
 * SDK refusal by the table above; undefined for anything else (the app answers 500 and logs it).
 */
export function answerOf(error: unknown): ErrorAnswer | undefined {
  if (error instanceof ApiError)
    return { status: error.status, code: error.code, message: error.message, details: error.details };
  if (error instanceof DomainError)
    return { status: statusOfKind[error.kind], code: error.code, message: error.message, details: error.details };
  for (const refusal of sdkRefusals) {
    const answer = refusal(error);
    if (answer) return answer;
  }
  return undefined;
}
