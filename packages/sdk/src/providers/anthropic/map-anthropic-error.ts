import { APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { ModelCallError } from '../../core/errors/index.js';
import type { FailureKind } from '../../core/failure.js';
import {
  failureFromHttpError,
  failureFromStreamError,
  failureFromTransportError,
  type TransportPhase,
} from '../shared/classify-provider-failure.js';

/** Anthropic's error types, for `error` events sent inside a stream that had already started. */
const streamErrorKinds: Readonly<Record<string, FailureKind>> = {
  overloaded_error: 'server',
  api_error: 'server',
  rate_limit_error: 'rate-limited',
  timeout_error: 'timeout',
  authentication_error: 'authentication',
  permission_error: 'authentication',
  invalid_request_error: 'invalid-request',
  not_found_error: 'invalid-request',
  request_too_large: 'invalid-request',
  billing_error: 'invalid-request',
};

/**
 * Turns whatever the `@anthropic-ai/sdk` client threw during one attempt into a `ModelCallError`
 * with a typed failure: by HTTP status when there is one (529 "overloaded" is a `server`
 * failure), by Anthropic's error type for an `error` event inside a started stream, and as a
 * `connection` failure for the transport, with the phase it happened in. Never by message.
 */
export function mapAnthropicError(error: unknown, phase: TransportPhase): ModelCallError {
  if (ModelCallError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelCallError({ kind: 'timeout', errorName: error.name, message: error.message }, { cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const failure = failureFromHttpError({
      status: error.status,
      headers: error.headers,
      code: error.errorCode ?? error.type,
      message: readableMessage(error),
      errorName: error.name,
    });
    return new ModelCallError(failure, { cause: error });
  }
  if (error instanceof APIError && error.error !== undefined) {
    return new ModelCallError(
      failureFromStreamError({ type: error.type, message: readableMessage(error), errorName: error.name }, streamErrorKinds),
      { cause: error },
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

/** The API's own explanation when the body had one; the client's message would repeat the whole JSON body. */
function readableMessage(error: APIError): string {
  if (!error.apiMessage) return error.message;
  return typeof error.status === 'number' ? `${error.status} ${error.apiMessage}` : error.apiMessage;
}
