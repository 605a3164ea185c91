import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { routePath } from 'hono/route';
import { sql } from 'kysely';
import { sameSecret } from '../adapters/crypto/index.js';
import { a2aRoutes } from './a2a/a2a-routes.js';
import { ApiError } from './api-error.js';
import { authenticate } from './authentication.js';
import { limitBody } from './body-limit.js';
import { compressAnswers } from './compression.js';
import { defaultConsoleDirectory, mountConsole } from './console-static.js';
import { answerOf } from './error-table.js';
import { limitJsonDepth } from './json-depth.js';
import { apiTags, registerSecuritySchemes } from './openapi.js';
import { referencePageContentSecurityPolicy, renderReferencePage } from './reference-page.js';
import { apiRouteGroups } from './routes/index.js';
import { securityHeaders } from './security-headers.js';
import type { PlatformEnvironment, PlatformServices } from './services.js';

/** Every API route is under this prefix. */
export const apiPrefix = '/api/v1';

/** The OpenAPI document's fixed parts. */
export const openApiInfo = {
  openapi: '3.1.0',
  info: {
    title: 'AgentLoom platform API',
    version: '1.0.0',
    description:
      'Spaces, shared resources, apps, drafts and releases. Errors are `{ error: { code, message, details } }` with stable codes.',
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  tags: apiTags,
} as const;

/**
 * Builds the platform's HTTP app: probes and metrics at the root, the API under `/api/v1` (one
 * sub-app per resource), the OpenAPI document and its reference page. Order matters: request id,
 * logging, metrics and security headers first; then the body limit; then authentication, so that
 * an anonymous call is a 401 before its body is even read; then the JSON depth limit, so that no
 * route ever sees a body nested too deep (P-15.4).
 */
export function createPlatformApp(services: PlatformServices): OpenAPIHono<PlatformEnvironment> {
  const app = new OpenAPIHono<PlatformEnvironment>();

  app.use('*', requestId());
  app.use('*', async (c, next) => {
    c.set('services', services);
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routePath(c);
      const seconds = (performance.now() - started) / 1000;
      services.metrics.httpRequests.inc({ method: c.req.method, route, status: String(c.res.status) });
      services.metrics.httpDuration.observe({ method: c.req.method, route }, seconds);
      services.logger.info(
        {
          requestId: c.get('requestId'),
          method: c.req.method,
          route,
          status: c.res.status,
          durationMs: Math.round(seconds * 1000),
        },
        'request',
      );
    }
  });

  app.use('*', securityHeaders());

  app.onError((error, c) => {
    const requestIdValue = c.get('requestId');
    const answer = answerOf(error);
    if (answer) {
      return c.json({ error: { code: answer.code, message: answer.message, details: answer.details } }, answer.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const code = error.status === 400 ? 'malformed-json' : error.status === 415 ? 'unsupported-media-type' : 'bad-request';
      const message =
        error.status === 400
          ? 'The body is not valid JSON.'
          : error.status === 415
            ? 'Send the body as application/json.'
            : error.message;
      return c.json({ error: { code, message, details: {} } }, error.status);
    }
    services.logger.error(
      {
        requestId: requestIdValue,
        err: { name: (error as Error).name, message: (error as Error).message, stack: (error as Error).stack },
      },
      'unhandled error',
    );
    return c.json(
      {
        error: { code: 'internal-error', message: 'Something went wrong on the server.', details: { requestId: requestIdValue } },
      },
      500,
    );
  });

  app.notFound((c) =>
    c.json({ error: { code: 'route-not-found', message: `No route ${c.req.method} ${c.req.path}.`, details: {} } }, 404),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await sql`select 1`.execute(services.database);
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ error: { code: 'database-unavailable', message: 'The database does not answer.', details: {} } }, 503);
    }
  });
  // Metrics describe the instance (routes, load, process); they need the configured bearer token
  // and are off without one (P-15.4; see docs/security.md for why not a second listen address).
  app.get('/metrics', async (c) => {
    const token = services.config.metricsToken;
    if (!token) {
      throw new ApiError(
        404,
        'metrics-disabled',
        'Metrics are off: set AGENTLOOM_METRICS_TOKEN and scrape with it as a bearer token.',
      );
    }
    const sent = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (!sameSecret(sent, token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new ApiError(401, 'unauthenticated', 'Send the metrics token (AGENTLOOM_METRICS_TOKEN) as a bearer token.');
    }
    c.header('Content-Type', services.metrics.registry.contentType);
    return c.body(await services.metrics.registry.metrics());
  });

  const api = new OpenAPIHono<PlatformEnvironment>();
  api.use('*', compressAnswers());
  api.use('*', limitBody(services.config.bodyLimitBytes));
  api.use('*', authenticate(apiPrefix));
  api.use('*', limitJsonDepth());
  for (const group of apiRouteGroups()) api.route('/', group);
  registerSecuritySchemes(api);
  const document = () => api.getOpenAPI31Document({ ...openApiInfo, servers: [{ url: apiPrefix }] });
  api.get('/openapi.json', (c) => c.json(document()));
  api.get('/reference', (c) => {
    c.header('Content-Security-Policy', referencePageContentSecurityPolicy);
    return c.html(renderReferencePage(document() as unknown as Parameters<typeof renderReferencePage>[0]));
  });
  app.route(apiPrefix, api);
  // Apps published over A2A (issue 32): JSON-RPC and Agent Cards, outside the REST API and its document.
  app.route('/a2a', a2aRoutes(services.config.bodyLimitBytes));
  // After the API, so the console's SPA fallback can never answer an API path.
  mountConsole(app, services.config.consoleDirectory ?? defaultConsoleDirectory);
  return app;
}
