import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from './harness.js';

describe('the built web console served by the platform', () => {
  const consoleDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-console-static-'));
  let platform: TestPlatform;
  beforeAll(async () => {
    mkdirSync(path.join(consoleDirectory, 'assets'));
    writeFileSync(path.join(consoleDirectory, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(path.join(consoleDirectory, 'assets', 'index-abc123.js'), 'console.log(1);');
    writeFileSync(path.join(path.dirname(consoleDirectory), 'outside-console.txt'), 'secret');
    platform = await createTestPlatform('sqlite', { consoleDirectory });
  });
  afterAll(async () => {
    await platform.destroy();
    rmSync(consoleDirectory, { recursive: true, force: true });
    rmSync(path.join(path.dirname(consoleDirectory), 'outside-console.txt'), { force: true });
  });

  it('serves files, with hashed assets cached for good and the page revalidated', async () => {
    const asset = await platform.app.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const index = await platform.app.request('/');
    expect(await index.text()).toContain('<title>console</title>');
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers client-side routes with index.html (SPA fallback)', async () => {
    const deep = await platform.app.request('/spaces/spc_1/agents/app_1');
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
  });

  it('never shadows the API or the probes: an unknown API route stays a JSON error, never the page', async () => {
    // Anonymous: authentication answers first (401); signed in, it is a 404 `route-not-found` (browser test).
    const missing = await platform.app.request('/api/v1/no-such-route');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toContain('application/json');
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
    expect((await platform.app.request('/healthz')).headers.get('content-type')).toContain('application/json');
    expect((await platform.app.request('/api/v1/openapi.json')).headers.get('content-type')).toContain('application/json');
  });

  it('sends security headers: the console CSP (frame-ancestors none), Referrer-Policy, nosniff; HSTS only over HTTPS (P-15.4)', async () => {
    const page = await platform.app.request('/spaces/spc_1');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    // Inline <style> elements need this page's nonce, new on every page load.
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    writeFileSync(path.join(consoleDirectory, 'index.html'), '<!doctype html><html><head><title>console</title></head></html>');
    const withHead = await platform.app.request('/');
    const nextNonce = /'nonce-([^']+)'/.exec(withHead.headers.get('content-security-policy') ?? '')?.[1];
    expect(nextNonce).not.toBe(nonce);
    expect(await withHead.text()).toContain(`<meta property="csp-nonce" nonce="${nextNonce}">`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('strict-transport-security')).toBeNull();
    const json = await platform.app.request('/api/v1/openapi.json');
    expect(json.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const reference = await platform.app.request('/api/v1/reference');
    expect(reference.headers.get('content-security-policy')).toContain("default-src 'none'");
    // HSTS needs HTTPS: forwarded by a trusted proxy here, never believed from anyone else.
    const behindProxy = await createTestPlatform('sqlite', { consoleDirectory, trustedProxies: ['10.0.0.1'] });
    try {
      const viaProxy = (peer: string) =>
        behindProxy.app.request(
          '/',
          { headers: { 'x-forwarded-proto': 'https' } },
          { incoming: { socket: { remoteAddress: peer } } },
        );
      expect((await viaProxy('10.0.0.1')).headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect((await viaProxy('203.0.113.9')).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await behindProxy.destroy();
    }
  });

  it('never serves a file outside the console directory', async () => {
    const outside = await platform.app.request('/..%2Foutside-console.txt');
    expect(await outside.text()).not.toContain('secret');
  });
});
