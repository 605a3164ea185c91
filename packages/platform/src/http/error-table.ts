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

/**
 * The SDK's refusals that reach a route (a run ended, unknown, an approval that does not exist, a
 * run request the SDK refuses), with the status and stable code the API answers them with.
 */
const sdkRefusals: ReadonlyArray<(error: unknown) => ErrorAnswer | undefined> = [
  (error) =>
    error instanceof RunNotActiveError
      ? { status: 409, code: 'run-not-active', message: 'The run has ended.', details: { status: error.status } }
      : undefined,
  (error) =>
    error instanceof ApprovalNotFoundError
      ? { status: 404, code: 'approval-not-found', message: 'The run has no such approval.', details: {} }
      : undefined,
  (error) =>
    error instanceof InputNotFoundError
      ? { status: 404, code: 'input-not-found', message: error.message, details: {} }
      : undefined,
  (error) =>
    error instanceof InputAlreadyAnsweredError
      ? {
          status: 409,
          code: 'input-already-answered',
          message: error.message,
          details: { interruptId: error.interruptId, timedOut: error.timedOut },
        }
      : undefined,
  (error) =>
    error instanceof InvalidInputAnswerError
      ? {
          status: 422,
          code: 'invalid-input-answer',
          message: error.message,
          details: { interruptId: error.interruptId, problems: error.problems },
        }
      : undefined,
  (error) =>
    error instanceof ElicitationNotFoundError
      ? { status: 404, code: 'elicitation-not-found', message: error.message, details: {} }
      : undefined,
  (error) =>
    error instanceof ElicitationNotPendingError
      ? { status: 409, code: 'elicitation-not-pending', message: error.message, details: { why: error.why } }
      : undefined,
  (error) =>
    error instanceof InvalidElicitationAnswerError
      ? {
          status: 422,
          code: 'invalid-elicitation-answer',
          message: error.message,
          details: { elicitationId: error.elicitationId, problems: error.problems },
        }
      : undefined,
  (error) =>
    error instanceof RunNotFoundError
      ? { status: 404, code: 'not-found', message: 'The run was not found.', details: {} }
      : undefined,
  (error) =>
    error instanceof InvalidRunRequestError
      ? { status: 422, code: 'invalid-run-request', message: error.message, details: {} }
      : undefined,
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
