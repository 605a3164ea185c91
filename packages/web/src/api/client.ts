import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/platform-api.js';

/** Where the CSRF token of the console session is kept (shared by the tabs of this origin). */
const csrfStorageKey = 'agentloom.csrf-token';
const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Remembers the CSRF token the login returned; `undefined` forgets it (sign-out). */
export function rememberCsrfToken(token: string | undefined): void {
  if (token === undefined) localStorage.removeItem(csrfStorageKey);
  else localStorage.setItem(csrfStorageKey, token);
}

/** Sends the session's CSRF token on every unsafe call, as the platform requires for cookie sessions. */
const csrfMiddleware: Middleware = {
  onRequest({ request }) {
    const token = localStorage.getItem(csrfStorageKey);
    if (token && unsafeMethods.has(request.method)) request.headers.set('x-csrf-token', token);
    return request;
  },
};

/**
 * The typed platform API client: every path, body and answer is checked against the types
 * generated from the platform's OpenAPI document (`npm run api:generate`).
 */
export const api = createClient<paths>({ baseUrl: '/api/v1', credentials: 'same-origin' });
api.use(csrfMiddleware);

/** Named schemas of the API, e.g. `Schema<'App'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
