import { APIConnectionTimeoutError, APIError } from 'openai';
import { ModelCallError } from '../../core/errors/index.js';
import type { FailureKind } from '../../core/failure.js';
import {
  failureFromHttpError,
  failureFromStreamError,
  failureFromTransportError,
  type TransportPhase,
} from '../shared/classify-provider-failure.js';

/** Error types an OpenAI-compatible server may put in an `error` chunk inside a started stream. */
const streamErrorKinds: Readonly<Record<string, FailureKind>> = {
  server_error: 'server',
  internal_error: 'server',
  service_unavailable: 'server',
  rate_limit_exceeded: 'rate-limited',
  rate_limit_error: 'rate-limited',
  tokens: 'rate-limited',
  requests: 'rate-limited',
  invalid_request_error: 'invalid-request',
  context_length_exceeded: 'invalid-request',
  authentication_error: 'authentication',
  insufficient_quota: 'invalid-request',
};

/**
 * Turns whatever the `openai` client threw during one attempt into a `ModelCallError` with a
 * typed failure, by the error's class, HTTP status, error type and the phase it happened in,
 * never by its message. `insufficient_quota` comes as a 429 but waiting does not refill a quota,
 * so it is marked not retryable. A body that is not valid JSON is a `server` failure: the
 * provider sent something no attempt can be assembled from. The client's error classes leave
 * `name` as `Error`, so the class name is recorded instead, for diagnosis.
 */
export function mapOpenAICompatibleError(error: unknown, phase: TransportPhase): ModelCallError {
  if (ModelCallError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelCallError({ kind: 'timeout', errorName: error.constructor.name, message: error.message }, { cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const code = error.code ?? error.type;
    const failure = failureFromHttpError({
      status: error.status,
      headers: error.headers,
      code,
      message: error.message,
      errorName: error.constructor.name,
    });
    if (code === 'insufficient_quota') failure.retryable = false;
    return new ModelCallError(failure, { cause: error });
  }
  if (error instanceof APIError && error.error !== undefined) {
    const type = error.code ?? error.type;
    return new ModelCallError(
      failureFromStreamError({ type, message: error.message, errorName: error.constructor.name }, streamErrorKinds),
      {
        cause: error,
      },
    );
  }
  if (error instanceof SyntaxError) {
    return new ModelCallError(
      { kind: 'server', code: 'malformed-stream', errorName: error.name, message: `unreadable stream data: ${error.message}` },
      { cause: error },
    );
  }
  return new ModelCallError(failureFromTransportError(error, phase), { cause: error });
}
