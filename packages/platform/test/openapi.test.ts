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
        .map((route) => `${route.method} ${route.path}`)
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

  it('serves probes and Prometheus metrics', async () => {
    expect((await platform.app.request('/healthz')).status).toBe(200);
    expect((await platform.app.request('/readyz')).status).toBe(200);
    const metrics = await (await platform.app.request('/metrics')).text();
    expect(metrics).toContain('agentloom_http_requests_total');
  });
});
