/** The platform API as the console uses it: the typed client, its schemas and the problem type. */
export { api, rememberCsrfToken, type Schema } from './client.js';
export { ApiProblem, type FieldIssue, problemOf, unwrap } from './problem.js';
export { queries } from './queries.js';
export { queryKeys } from './query-keys.js';
