/**
 * The A2A 1.0 errors the platform answers (A2A §5.4; JSON-RPC codes). A use case throws one when
 * the protocol names the refusal; the JSON-RPC binding (`http/a2a/`) turns it, and the platform's
 * own domain errors, into a JSON-RPC error object.
 */
export const a2aErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  versionNotSupported: -32009,
} as const;

/** A refusal the A2A protocol names: its JSON-RPC code, a message, and data for programs. */
export class A2AProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'A2AProtocolError';
  }
}

/** `TaskNotFoundError`: no such task, or one the caller may not see (the same answer, so nothing leaks). */
export function taskNotFound(taskId: string): A2AProtocolError {
  return new A2AProtocolError(a2aErrorCodes.taskNotFound, `Task ${taskId} was not found.`, { taskId });
}

/** `InvalidParams`: the request's parameters cannot be used. */
export function invalidParams(message: string, data?: Record<string, unknown>): A2AProtocolError {
  return new A2AProtocolError(a2aErrorCodes.invalidParams, message, data);
}

/** `UnsupportedOperationError`: the operation does not apply (a message to a finished task…). */
export function unsupportedOperation(message: string, data?: Record<string, unknown>): A2AProtocolError {
  return new A2AProtocolError(a2aErrorCodes.unsupportedOperation, message, data);
}
