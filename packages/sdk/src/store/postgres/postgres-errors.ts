import { AgentLoomError, StoreFailureError } from '../../core/errors/index.js';

/** SQLSTATE of a missing table: the schema was never set up. */
const UNDEFINED_TABLE = '42P01';

/**
 * SQLSTATEs after which the same call may succeed: the server is shutting down or starting
 * (57P01-57P03), the connection failed (class 08), a statement timed out or was cancelled
 * (57014), too many connections (53300), a serialisation failure or deadlock (40001, 40P01).
 */
const TRANSIENT_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '40001', '40P01']);

/** Socket errors of a connection that went away or never came. */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Messages of `pg` for a connection that ended or a call that timed out on the client side. */
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /not queryable/i,
  /connection (?:is )?(?:closed|ended)/i,
];

/** Whether a driver error may go away if the same call is tried again. */
export function isTransientPostgresError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('08') || TRANSIENT_STATES.has(code) || TRANSIENT_SOCKET_CODES.has(code))) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return TRANSIENT_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * Turns what a store call threw into what the store reports: AgentLoom errors pass through;
 * driver errors become `StoreFailureError`, `transient` when a retry may succeed.
 */
export function toPostgresStoreError(operation: string, schema: string, error: unknown): Error {
  if (AgentLoomError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const hint = code === UNDEFINED_TABLE ? ` (has setup() run on schema "${schema}"?)` : '';
  const message = error instanceof Error ? error.message : String(error);
  return new StoreFailureError(`PostgresRunStore.${operation} failed: ${message}${hint}`, {
    cause: error,
    transient: isTransientPostgresError(error),
  });
}
