/**
 * The platform's domain errors: what a use case refuses, with a stable `code` clients switch on
 * (PLATFORM.md §4.4) and the `details` that explain it, but no transport. Each class names the
 * kind of refusal; the HTTP layer's error table (`http/error-table.ts`) is the one place that
 * turns a kind into a status, so the application, the worker and the jobs never speak HTTP.
 */
export type DomainErrorKind =
  | 'invalid-request'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'precondition-failed'
  | 'precondition-required'
  | 'validation'
  | 'too-large'
  | 'upstream-failed'
  | 'upstream-timeout';

/** A refusal of the domain: a kind, a stable code, a message for people, details for programs. */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The base class of the refusals of one kind. Every kind has exactly one class, declared below
 * as `class XError extends ofKind('x') {}`, so `instanceof` tells the refusals apart and `kind`
 * keeps its literal type.
 */
function ofKind<K extends DomainErrorKind>(kind: K) {
  return class extends DomainError {
    readonly kind: K = kind;
  };
}

/** The request itself is malformed beyond its schema (an unreadable cursor, a missing task id). */
export class InvalidRequestError extends ofKind('invalid-request') {}

/** The caller may not do this (its role, its kind of credential). */
export class ForbiddenError extends ofKind('forbidden') {}

/** The thing does not exist, or not for this caller (never says which: no cross-space probing). */
export class NotFoundError extends ofKind('not-found') {}

/** The state of things refuses the request now (an active run, an app being deleted, a race lost). */
export class ConflictError extends ofKind('conflict') {}

/** The caller's version of the thing is no longer the current one (an `If-Match` that lost). */
export class PreconditionFailedError extends ofKind('precondition-failed') {}

/** The change needs the caller to name the version it changes (an `If-Match`). */
export class PreconditionRequiredError extends ofKind('precondition-required') {}

/** Well-formed but refused by a rule of the domain (an invalid draft, an unknown release). */
export class ValidationError extends ofKind('validation') {}

/** What the caller sent is larger than a configured limit allows (an uploaded file). */
export class TooLargeError extends ofKind('too-large') {}

/** A server the platform called on the caller's behalf failed (a connection test, an MCP server). */
export class UpstreamFailedError extends ofKind('upstream-failed') {}

/** A server the platform called on the caller's behalf did not answer in time. */
export class UpstreamTimeoutError extends ofKind('upstream-timeout') {}

/** The usual not-found refusal: `<what> was not found.`, code `not-found`. */
export function notFoundError(what: string): NotFoundError {
  return new NotFoundError('not-found', `${what} was not found.`);
}

/** The usual refusal of an app being deleted (NOT-21): code `app-deleting`. */
export function appDeletingError(): ConflictError {
  return new ConflictError('app-deleting', 'The app is being deleted.');
}
