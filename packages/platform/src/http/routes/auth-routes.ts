import { z } from '@hono/zod-openapi';
import { deleteCookie, setCookie } from 'hono/cookie';
import { hashToken, randomToken, unusablePasswordHash, verifyPassword } from '../../adapters/crypto/index.js';
import { deleteWebSession, findUser, findUserByEmail, insertWebSession, membershipsOf } from '../../adapters/identity/index.js';
import { ApiError } from '../api-error.js';
import { csrfTokenOf, requireUser, sessionCookieName } from '../authentication.js';
import { apiRoute, createSubApp, errorResponse, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { clientAddressOf, cookieIsSecure } from '../request-origin.js';
import { userSchema, userView } from './views.js';

/** How long a console session lasts. */
const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;

const loginBody = z
  .strictObject({ email: z.string().min(3).max(320), password: z.string().min(1).max(1000) })
  .openapi('LoginRequest');
const loginResult = z.object({ user: userSchema, csrfToken: z.string() }).openapi('LoginResult');
const meResult = z
  .object({
    user: userSchema,
    spaces: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        role: z.enum(['viewer', 'editor', 'admin', 'owner']),
        demo: z
          .boolean()
          .openapi({ description: 'The seeded Demo space (issue 35): its runs offer "Crash the worker" to instance admins.' }),
      }),
    ),
  })
  .openapi('Me');

/** `/auth`: console login (cookie session + CSRF token), logout and the current user. */
export function authRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/auth/login',
      operationId: 'login',
      tags: ['Authentication'],
      summary: 'Sign in',
      errors: { 401: ['invalid-credentials'] },
      public: true,
      description: 'Sign in; sets the session cookie and returns the CSRF token for later changes.',
      request: { body: jsonBody(loginBody) },
      responses: {
        200: {
          ...jsonResponse('Signed in.', loginResult),
          headers: {
            'Set-Cookie': {
              description:
                'The session cookie `agentloom_session` (HttpOnly, SameSite=Lax, Secure over HTTPS, 7 days); send `csrfToken` as `X-CSRF-Token` on changes.',
              schema: { type: 'string' },
            },
          },
        },
        429: {
          ...errorResponse('Too many failed sign-ins for the account or from the address. Codes: `too-many-attempts`.'),
          headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } },
        },
      },
    }),
    async (c) => {
      const { database, signInLimiter, now, config } = c.get('services');
      const { email, password } = c.req.valid('json');
      const address = clientAddressOf(c);
      const verdict = await signInLimiter.check(email, address, now());
      if (!verdict.allowed) {
        const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
        c.header('Retry-After', String(seconds));
        throw new ApiError(
          429,
          'too-many-attempts',
          verdict.limit === 'account'
            ? 'Too many failed sign-ins for this account; try again later.'
            : 'Too many failed sign-ins from this address; try again later.',
          { retryAfterSeconds: seconds, limit: verdict.limit },
        );
      }
      const user = await findUserByEmail(database, email);
      const matches = await verifyPassword(password, user?.password_hash ?? unusablePasswordHash);
      if (!user || !matches || user.status !== 'active') {
        await signInLimiter.recordFailure(email, address, now());
        throw new ApiError(401, 'invalid-credentials', 'The email or password is wrong, or the account is disabled.');
      }
      await signInLimiter.recordSuccess(email, address, now());
      const token = randomToken();
      const createdAt = now();
      await insertWebSession(database, {
        tokenHash: hashToken(token),
        userId: user.id,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + sessionLifetimeMs),
        ip: address ?? null,
        userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null,
      });
      setCookie(c, sessionCookieName, token, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: sessionLifetimeMs / 1000,
        secure: cookieIsSecure(c),
      });
      return c.json({ user: userView(user), csrfToken: csrfTokenOf(config.secretKey, token) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/auth/logout',
      operationId: 'logout',
      tags: ['Authentication'],
      summary: 'Sign out',
      description: 'Sign out: ends the session.',
      responses: {
        200: {
          ...jsonResponse('Signed out.', okSchema),
          headers: { 'Set-Cookie': { description: 'Clears the session cookie.', schema: { type: 'string' } } },
        },
      },
    }),
    async (c) => {
      const user = requireUser(c);
      await deleteWebSession(c.get('services').database, user.sessionId);
      deleteCookie(c, sessionCookieName, { path: '/', secure: cookieIsSecure(c) });
      return c.json({ ok: true as const }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/auth/me',
      operationId: 'getCurrentUser',
      tags: ['Authentication'],
      summary: 'Read the signed-in user',
      description: 'The signed-in user, their spaces and roles.',
      responses: { 200: jsonResponse('The user.', meResult) },
    }),
    async (c) => {
      const principal = requireUser(c);
      const { database } = c.get('services');
      const user = await findUser(database, principal.userId);
      if (!user) throw new Error(`The signed-in user ${principal.userId} does not exist.`);
      const spaces = await membershipsOf(database, user.id);
      return c.json({ user: userView(user), spaces }, 200);
    },
  );

  return app;
}
