/** One problem the server found in a request field (`details.issues` of a 400). */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * A failed API call as the console shows it: the server's stable `code` and message, and the
 * per-field issues of a validation failure so that forms can put each message at its field.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }

  /** The issues the server listed, with their paths (e.g. `name`, `config.execution.maxLoops`). */
  get issues(): FieldIssue[] {
    const issues = this.details.issues;
    if (!Array.isArray(issues)) return [];
    return issues
      .filter((issue): issue is FieldIssue => typeof issue?.path === 'string' && typeof issue?.message === 'string')
      .map((issue) => ({ path: issue.path, message: issue.message }));
  }

  /** The first message for a field path, or for a path under it. */
  fieldError(path: string): string | undefined {
    return this.issues.find((issue) => issue.path === path || issue.path.startsWith(`${path}.`))?.message;
  }
}

/** Builds the problem from an error body `{ error: { code, message, details } }` (or anything else the server sent). */
export function problemOf(status: number, body: unknown): ApiProblem {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    const details = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
    return new ApiProblem(status, error.code, error.message, details);
  }
  return new ApiProblem(status, 'unexpected-response', `The server answered ${status} without an error body.`, {});
}

/**
 * Awaits an openapi-fetch call and returns its data, or throws an `ApiProblem` (also for a
 * network failure), so that no error is ever swallowed.
 */
export async function unwrap<Data>(request: Promise<{ data?: Data; error?: unknown; response: Response }>): Promise<Data> {
  let result: { data?: Data; error?: unknown; response: Response };
  try {
    result = await request;
  } catch (error) {
    throw new ApiProblem(0, 'network-error', `The server could not be reached (${(error as Error).message}).`, {});
  }
  if (!result.response.ok || result.error !== undefined) throw problemOf(result.response.status, result.error);
  return result.data as Data;
}
