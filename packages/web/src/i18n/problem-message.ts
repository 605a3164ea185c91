import type { IntlShape } from 'react-intl';
import { ApiProblem } from '../api/problem.js';
import { isMessageId } from './messages/index.js';

/**
 * What the console says about a failed call, in the user's language: a known API error code
 * (`error.<code>` in the catalogues) gives its localised message; an unknown code, or an error
 * that is not an API answer, falls back to the server's (or the error's own) message, so nothing
 * is swallowed. The code itself is shown beside it by `ProblemAlert`.
 */
export function problemMessage(intl: IntlShape, problem: unknown): string {
  if (problem instanceof ApiProblem) {
    const id = `error.${problem.code}`;
    if (isMessageId(id)) return intl.formatMessage({ id }, { status: problem.status });
    return problem.message;
  }
  return problem instanceof Error ? problem.message : String(problem);
}
