/**
 * The typed error every route returns: `{ error: { code, message, details } }` with a stable
 * `code` clients can switch on (PLATFORM.md §4.4). Routes throw it; the app's error handler
 * renders it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 428 | 429 | 500 | 502 | 503 | 504,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 404 that never says whether the thing exists in another space (no cross-space probing). */
export function notFound(what: string): ApiError {
  return new ApiError(404, 'not-found', `${what} was not found.`);
}

/** 403 for an authenticated caller whose role does not allow the action. */
export function forbidden(action: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError(403, 'forbidden', `Your role does not allow ${action}.`, details);
}
