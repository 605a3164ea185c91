/**
 * Why one attempt of an operation (model call, tool call) failed, as a typed, serialisable
 * value. Retry decisions look only at these fields, never at message text.
 */
export type FailureKind =
  /** The attempt ran past its timeout (tool attempt timeout, model first-output timeout). */
  | 'timeout'
  /** A model stream started and then stopped sending. */
  | 'stalled'
  /** The connection failed or was cut (refused, reset, DNS, socket hang-up). */
  | 'connection'
  /** The provider asked us to slow down (HTTP 429). */
  | 'rate-limited'
  /** The provider or service failed on its side (HTTP 5xx). */
  | 'server'
  /** A model response ended without being complete (`length` finish, cut tool call, no finish). */
  | 'incomplete-output'
  /** The request itself was refused (HTTP 4xx other than 429): retrying cannot help. */
  | 'invalid-request'
  /** Credentials were refused (HTTP 401/403). */
  | 'authentication'
  /** The call was sent but its outcome was not saved before a crash. */
  | 'unknown-outcome'
  /** The model gave arguments the tool's schema rejects: returned to the model, never run. */
  | 'invalid-arguments'
  /** The model called a tool that does not exist. */
  | 'unknown-tool'
  /** A tool raised an error of its own (a business failure). */
  | 'tool-error'
  /** A tool returned a value that is not JSON (a function, a Symbol, a `Map`, a cycle …); it did run. */
  | 'invalid-result'
  /** An executor task ended without an answer (its model failed for good, S-10). */
  | 'executor-failed'
  /** A hook, guardrail, permission rule or approver refused the call (K-6); it never ran. */
  | 'denied';

/** A serialisable description of one failed attempt. */
export interface Failure {
  kind: FailureKind;
  message: string;
  /** An error code when the failure carried one (`ECONNRESET`, a provider error type …). */
  code?: string;
  /** The HTTP status when the failure came from an HTTP response. */
  status?: number;
  /** The class name of the thrown error, for diagnosis only. */
  errorName?: string;
  /** A wait the other side asked for (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** An explicit statement by the failing code that another attempt may succeed. */
  retryable?: boolean;
}

const retryableKinds: ReadonlySet<FailureKind> = new Set([
  'timeout',
  'stalled',
  'connection',
  'rate-limited',
  'server',
  'incomplete-output',
  'unknown-outcome',
]);

const connectionCodes: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The default retry classification: transport and capacity failures, timeouts and unknown
 * outcomes may be retried; refused requests, invalid arguments and business errors may not,
 * unless the failing code marked itself `retryable`.
 */
export function isRetryableFailure(failure: Failure): boolean {
  if (failure.retryable !== undefined) return failure.retryable;
  return retryableKinds.has(failure.kind);
}

/**
 * Turns an error thrown by a tool into a `Failure`: system errors with a connection code count as
 * `connection`, everything else as a business `tool-error`. An error may state `retryable: true`.
 */
export function failureFromToolError(error: unknown): Failure {
  if (typeof error === 'object' && error !== null) {
    const record = error as { code?: unknown; message?: unknown; name?: unknown; retryable?: unknown; failureKind?: unknown };
    const code = typeof record.code === 'string' ? record.code : undefined;
    // A typed transport error (an MCP connection error, say) may state its kind itself.
    const stated =
      record.failureKind === 'connection' || record.failureKind === 'server' || record.failureKind === 'unknown-outcome'
        ? record.failureKind
        : undefined;
    const failure: Failure = {
      kind: stated ?? (code !== undefined && connectionCodes.has(code) ? 'connection' : 'tool-error'),
      message: typeof record.message === 'string' && record.message !== '' ? record.message : String(error),
    };
    if (code !== undefined) failure.code = code;
    if (typeof record.name === 'string') failure.errorName = record.name;
    if (typeof record.retryable === 'boolean') failure.retryable = record.retryable;
    return failure;
  }
  return { kind: 'tool-error', message: String(error) };
}
