import type { Failure, FailureKind } from '../../core/failure.js';
import { type HeaderReader, parseRetryAfter } from './parse-retry-after.js';

/** What an adapter knows about an HTTP error response, read from its client's typed error. */
export interface HttpErrorDescription {
  status: number;
  headers?: HeaderReader | undefined;
  /** The provider's error type or code from the body (`rate_limit_error`, `insufficient_quota` …). */
  code?: string | null | undefined;
  message: string;
  errorName?: string | undefined;
}

/** What an adapter knows about an error event the provider sent inside an already started stream. */
export interface StreamErrorDescription {
  /** The provider's error type (`overloaded_error`, `server_error` …). */
  type?: string | null | undefined;
  message: string;
  errorName?: string | undefined;
}

/** Where in an attempt a transport failure happened: before the response started, or during its body. */
export type TransportPhase = 'request' | 'stream';

/**
 * Classifies an HTTP error response by its status alone: 429 is `rate-limited` (with the
 * server's `Retry-After`), 401/403 `authentication`, 408 `timeout`, every 5xx (Anthropic's 529
 * "overloaded" included) `server`, and any other 4xx `invalid-request`. A server that states
 * `x-should-retry` (OpenAI and Anthropic both do) decides retryability explicitly, because it
 * knows cases the status cannot tell, such as a lock timeout or an exhausted quota.
 */
export function failureFromHttpError(description: HttpErrorDescription, now: () => number = Date.now): Failure {
  const failure: Failure = {
    kind: kindOfStatus(description.status),
    status: description.status,
    message: description.message,
  };
  if (description.code) failure.code = description.code;
  if (description.errorName) failure.errorName = description.errorName;
  const retryAfterMs = parseRetryAfter(description.headers, now);
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  const shouldRetry = description.headers?.get('x-should-retry');
  if (shouldRetry === 'true') failure.retryable = true;
  if (shouldRetry === 'false') failure.retryable = false;
  return failure;
}

/**
 * Classifies an error event sent inside a stream that had already started (no HTTP status is
 * left to read) by the provider's error type, through the adapter's table. An unknown type counts
 * as `server`: the request was accepted, so the failure happened on the provider's side.
 */
export function failureFromStreamError(
  description: StreamErrorDescription,
  kinds: Readonly<Record<string, FailureKind>>,
): Failure {
  const type = description.type ?? undefined;
  const failure: Failure = {
    kind: (type !== undefined && Object.hasOwn(kinds, type) ? kinds[type] : undefined) ?? 'server',
    message: description.message,
  };
  if (type) failure.code = type;
  if (description.errorName) failure.errorName = description.errorName;
  return failure;
}

/**
 * Classifies a failure of the connection itself (refused, reset, DNS, a socket cut in the middle
 * of the body) as `connection`, keeping the first system error code found along the `cause` chain
 * (`ECONNREFUSED`, `UND_ERR_SOCKET` …): clients wrap the socket error one or two levels deep. An
 * error along that chain that states `retryable` decides it: a custom `fetch` that refuses a
 * destination by policy (`retryable: false`) is not retried as if the network had failed.
 */
export function failureFromTransportError(error: unknown, phase: TransportPhase): Failure {
  const where = phase === 'request' ? 'the request failed before a response arrived' : 'the response stream was cut';
  const failure: Failure = { kind: 'connection', message: `${where}: ${describeError(error)}` };
  const code = findErrorCode(error);
  if (code) failure.code = code;
  if (error instanceof Error) failure.errorName = error.name;
  const retryable = findStatedRetryable(error);
  if (retryable !== undefined) failure.retryable = retryable;
  return failure;
}

/** The first boolean `retryable` along an error's `cause` chain. */
function findStatedRetryable(error: unknown): boolean | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const retryable = (current as { retryable?: unknown }).retryable;
    if (typeof retryable === 'boolean') return retryable;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The first string `code` along an error's `cause` chain. */
export function findErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An error's message followed by the messages of its causes, for a failure record. */
export function describeError(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    const message = current instanceof Error ? current.message : String(current);
    if (message !== '' && !messages.includes(message)) messages.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return messages.join(' <- ') || 'unknown error';
}

function kindOfStatus(status: number): FailureKind {
  if (status === 429) return 'rate-limited';
  if (status === 401 || status === 403) return 'authentication';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'invalid-request';
}
