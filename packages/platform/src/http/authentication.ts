import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { hashToken, keyedDigest, sameSecret } from '../adapters/crypto/index.js';
import { findWebSession, type KeySubject, useApiKey, useApiKeyWith } from '../adapters/identity/index.js';
import { ApiError } from './api-error.js';
import { actorOf, type Principal } from './principal.js';
import type { PlatformEnvironment } from './services.js';

/** The cookie that carries a console session. */
export const sessionCookieName = 'agentloom_session';
/** The header that must echo the session's CSRF token on every unsafe cookie-authenticated call. */
export const csrfHeaderName = 'x-csrf-token';

/** The CSRF token of a session: an HMAC of its cookie token, so no second value is stored. */
export function csrfTokenOf(secretKey: string, sessionToken: string): string {
  return keyedDigest(secretKey, `csrf:${sessionToken}`);
}

/** The sign-in route: public, and the only unsafe call without a session's CSRF token. */
const loginRoute = '/auth/login';
/** The only API routes an anonymous caller may reach, below the API prefix: exact paths, never a suffix (P-15.4). */
const publicRoutes = [loginRoute, '/openapi.json', '/reference', '/demo/lookup'];

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Works out who is calling, before any validation or route runs, so that an anonymous call is a
 * 401 whatever its body; only the exact paths of `publicRoutes` under `apiPrefix` are public. A
 * bearer API key wins over a cookie. Cookie sessions must echo their CSRF token in
 * `X-CSRF-Token` on unsafe methods (login itself has no session yet).
 */
export function authenticate(apiPrefix: string): MiddlewareHandler<PlatformEnvironment> {
  const publicPaths = new Set(publicRoutes.map((route) => `${apiPrefix}${route}`));
  const loginPath = `${apiPrefix}${loginRoute}`;
  const subjectPrefix = `${apiPrefix}/`;
  return async (c, next) => {
    const principal = await principalOf(c, loginPath, subjectPrefix);
    const isPublic = publicPaths.has(c.req.path);
    if (!principal && !isPublic) throw new ApiError(401, 'unauthenticated', 'Sign in or send an API key.');
    c.set('principal', principal);
    await next();
  };
}

async function principalOf(
  c: Context<PlatformEnvironment>,
  loginPath: string,
  subjectPrefix: string,
): Promise<Principal | undefined> {
  const { database, config, now } = c.get('services');
  const authorization = c.req.header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) throw new ApiError(401, 'unauthenticated', 'The Authorization header must be "Bearer <api key>".');
    // An app's or a run's route: its row comes with the key, one round trip instead of two (issue 34).
    const subject = subjectOf(c.req.path, subjectPrefix);
    let key: Awaited<ReturnType<typeof useApiKey>>;
    if (subject) {
      const found = await useApiKeyWith(database, hashToken(match[1]), now(), subject);
      key = found?.key;
      c.set('subject', found?.subject);
    } else key = await useApiKey(database, hashToken(match[1]), now());
    if (!key) throw new ApiError(401, 'unauthenticated', 'The API key is unknown or revoked.');
    return key.app_id
      ? { kind: 'app-key', keyId: key.id, spaceId: key.space_id, appId: key.app_id, createdBy: key.created_by }
      : { kind: 'space-key', keyId: key.id, spaceId: key.space_id, createdBy: key.created_by };
  }
  const token = getCookie(c, sessionCookieName);
  if (!token) return undefined;
  const session = await findWebSession(database, hashToken(token));
  if (session?.status !== 'active' || session.expires_at <= now().toISOString()) return undefined;
  if (unsafeMethods.has(c.req.method) && c.req.path !== loginPath) {
    const sent = c.req.header(csrfHeaderName) ?? '';
    if (!sameSecret(sent, csrfTokenOf(config.secretKey, token))) {
      throw new ApiError(
        403,
        'csrf-token-invalid',
        'Cookie-authenticated changes must send the session CSRF token in X-CSRF-Token.',
      );
    }
  }
  return {
    kind: 'user',
    userId: session.id,
    email: session.email,
    isInstanceAdmin: session.is_instance_admin === 1,
    sessionId: session.sessionId,
  };
}

/**
 * The app or run a path below `prefix` names (`apps/{id}…`, `runs/{id}…`), its id as sent: an
 * encoded id finds nothing, and authorisation then reads the row itself.
 */
function subjectOf(path: string, prefix: string): KeySubject | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const [collection, id] = path.slice(prefix.length).split('/', 2);
  if (!id) return undefined;
  if (collection === 'apps') return { app: id };
  return collection === 'runs' ? { run: id } : undefined;
}

/** The caller, or a 401. */
export function requirePrincipal(c: Context<PlatformEnvironment>): Principal {
  const principal = c.get('principal');
  if (!principal) throw new ApiError(401, 'unauthenticated', 'Sign in or send an API key.');
  return principal;
}

/** A signed-in user (API keys act for a space or an app, never for a person), or 401/403. */
export function requireUser(c: Context<PlatformEnvironment>): Extract<Principal, { kind: 'user' }> {
  const principal = requirePrincipal(c);
  if (principal.kind !== 'user') throw new ApiError(403, 'user-required', 'This route is for signed-in users, not API keys.');
  return principal;
}

/** An instance administrator, or 401/403; `what` names the action in the refusal. */
export function requireInstanceAdmin(
  c: Context<PlatformEnvironment>,
  what = 'manage users',
): Extract<Principal, { kind: 'user' }> {
  const user = requireUser(c);
  if (!user.isInstanceAdmin) throw new ApiError(403, 'forbidden', `Only instance administrators may ${what}.`);
  return user;
}

/** The actor id of the current caller, recorded on what it creates. */
export function currentActor(c: Context<PlatformEnvironment>): string {
  return actorOf(requirePrincipal(c));
}
