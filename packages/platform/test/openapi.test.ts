import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, TestClient, type TestPlatform } from './harness.js';

/** Routes outside the OpenAPI document on purpose: the document itself, its page, probes and metrics. */
const undocumented = new Set([
  'GET /api/v1/openapi.json',
  'GET /api/v1/reference',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  // The web console's files and its SPA fallback (console-static.ts): not part of the API.
  'GET /*',
  // A2A (issue 32): an Agent Card and one JSON-RPC endpoint per published app, documented in
  // docs/a2a.md — JSON-RPC has one URL for every method, which OpenAPI cannot describe per method.
  'GET /a2a/apps/:appId/.well-known/agent-card.json',
  'POST /a2a/apps/:appId',
]);

describe('the OpenAPI document', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform('sqlite');
  });
  afterAll(() => platform.destroy());

  it('is served, validates, and lists exactly the routes the app serves', async () => {
    const response = await new TestClient(platform).request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);

    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        documented.add(`${method.toUpperCase()} /api/v1${path.replaceAll(/\{([^}]+)\}/g, ':$1')}`);
        // Every operation declares its typed errors.
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(['400', '401', '403', '404']),
        );
      }
    }
    const served = new Set(
      platform.app.routes
        .filter((route) => route.method !== 'ALL')
        // A parameter that takes the rest of the path (`:path{.+}`, the file routes) is `{path}` in the document.
        .map((route) => `${route.method} ${route.path.replaceAll(/\{[^}]*\}/g, '')}`)
        .filter((route) => !undocumented.has(route)),
    );
    expect([...served].sort()).toEqual([...documented].sort());
    expect(documented.size).toBeGreaterThan(40);
  });

  it('serves a reference page without scripts from elsewhere', async () => {
    const response = await platform.app.request('/api/v1/reference');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('/spaces/{spaceId}/model-connections');
    expect(html).not.toContain('<script');
  });

  it('serves probes to anyone; metrics are off without AGENTLOOM_METRICS_TOKEN', async () => {
    expect((await platform.app.request('/healthz')).status).toBe(200);
    expect((await platform.app.request('/readyz')).status).toBe(200);
    const metrics = await platform.app.request('/metrics');
    expect(metrics.status).toBe(404);
    expect(((await metrics.json()) as { error: { code: string } }).error.code).toBe('metrics-disabled');
  });

  it('serves Prometheus metrics only with their bearer token (P-15.4)', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const withToken = await createTestPlatform('sqlite', { metricsToken: token });
    try {
      const anonymous = await withToken.app.request('/metrics');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
      expect((await anonymous.text()).includes('agentloom_')).toBe(false);
      const wrong = await withToken.app.request('/metrics', { headers: { authorization: `Bearer ${token}x` } });
      expect(wrong.status).toBe(401);
      const scraped = await withToken.app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('agentloom_http_requests_total');
    } finally {
      await withToken.destroy();
    }
  });

  it('lets anonymous callers reach the exact public paths only, never a path that merely ends like one (P-15.4)', async () => {
    const anonymous = new TestClient(platform);
    expect((await anonymous.request('GET', '/openapi.json')).status).toBe(200);
    expect((await anonymous.request('GET', '/reference')).status).toBe(200);
    expect((await anonymous.request('POST', '/auth/login', { email: 'nobody@example.com', password: 'x' })).status).toBe(401);
    for (const [method, path] of [
      ['GET', '/spaces/spc_1/openapi.json'],
      ['GET', '/anything/reference'],
      ['POST', '/spaces/spc_1/auth/login'],
      ['GET', '/reference/'],
    ] as const) {
      const response = await anonymous.request(method, path, method === 'POST' ? {} : undefined);
      expect([response.status, (response.body as { error: { code: string } }).error.code], path).toEqual([
        401,
        'unauthenticated',
      ]);
    }
  });
});
