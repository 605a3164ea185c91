import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from './harness.js';

describe('the built web console served by the platform', () => {
  const consoleDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-console-static-'));
  let platform: TestPlatform;
  beforeAll(async () => {
    mkdirSync(path.join(consoleDirectory, 'assets'));
    writeFileSync(
      path.join(consoleDirectory, 'index.html'),
      '<!doctype html><html><head><title>console</title></head><body></body></html>',
    );
    writeFileSync(path.join(consoleDirectory, 'assets', 'index-abc123.js'), 'console.log(1);');
    // As the build writes them (vite-plugin-compression2): Brotli and gzip copies beside the file.
    const big = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    writeFileSync(path.join(consoleDirectory, 'assets', 'big-abc123.js'), big);
    writeFileSync(path.join(consoleDirectory, 'assets', 'big-abc123.js.br'), brotliCompressSync(big));
    writeFileSync(path.join(consoleDirectory, 'assets', 'big-abc123.js.gz'), gzipSync(big));
    writeFileSync(path.join(consoleDirectory, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    // As the build writes it (packages/web/scripts/write-page-preloads.ts).
    const preloads = {
      pages: [
        { path: '/spaces/:spaceId/agents/:appId/chat', scripts: ['/assets/chat-abc.js', '/assets/runs-abc.js'], styles: [] },
        {
          path: '/spaces/:spaceId/workflows/:appId',
          scripts: ['/assets/workflow-editor-abc.js'],
          styles: ['/assets/canvas-abc.css'],
        },
      ],
      catalogues: {
        en: { scripts: ['/assets/en-abc.js'], styles: [] },
        'zh-CN': { scripts: ['/assets/zh-cn-abc.js'], styles: [] },
      },
    };
    writeFileSync(path.join(consoleDirectory, 'page-preloads.json'), JSON.stringify(preloads));
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

  it("hints the requested page's chunks and the likely language's catalogue in the page, so they load with the main bundle", async () => {
    const chat = await (await platform.app.request('/spaces/spc_1/agents/app_1/chat')).text();
    expect(chat).toContain('<link rel="modulepreload" crossorigin href="/assets/chat-abc.js">');
    expect(chat).toContain('<link rel="modulepreload" crossorigin href="/assets/runs-abc.js">');
    expect(chat).toContain('<link rel="modulepreload" crossorigin href="/assets/en-abc.js">');
    expect(chat).not.toContain('workflow-editor-abc.js');
    expect(chat).toMatch(/<\/title><link rel="modulepreload"[\s\S]*<\/head>/);
    const editor = await platform.app.request('/spaces/spc_1/workflows/app_2/', {
      headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
    });
    expect(editor.headers.get('vary')).toBe('Accept-Encoding, Accept-Language');
    const editorPage = await editor.text();
    expect(editorPage).toContain('href="/assets/workflow-editor-abc.js"');
    expect(editorPage).toContain('<link rel="preload" as="style" crossorigin href="/assets/canvas-abc.css">');
    expect(editorPage).toContain('href="/assets/zh-cn-abc.js"');
    expect(editorPage).not.toContain('en-abc.js');
    // A path no route matches gets the catalogue only; a deeper path is not the editor's.
    const other = await (await platform.app.request('/spaces/spc_1/workflows/app_2/elsewhere/x')).text();
    expect(other).not.toContain('workflow-editor-abc.js');
    expect(other).toContain('en-abc.js');
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

  it("sends the build's Brotli or gzip copy to a browser that accepts it, and the file to one that does not", async () => {
    const original = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    const asBrotli = await platform.app.request('/assets/big-abc123.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(asBrotli.headers.get('content-encoding')).toBe('br');
    expect(asBrotli.headers.get('vary')).toBe('Accept-Encoding');
    expect(brotliDecompressSync(Buffer.from(await asBrotli.arrayBuffer())).toString()).toBe(original);
    const asGzip = await platform.app.request('/assets/big-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(asGzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await asGzip.arrayBuffer())).toString()).toBe(original);
    const refused = await platform.app.request('/assets/big-abc123.js', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(original);
    // Too small to have copies: sent as it is.
    const small = await platform.app.request('/assets/index-abc123.js', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    // The page itself carries a fresh nonce, so it is compressed per request.
    const page = await platform.app.request('/spaces/spc_1', { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toContain('csp-nonce');
  });

  it('compresses API answers of 1 KiB and more for clients that accept gzip (the browser suites follow event streams through it)', async () => {
    const document = await platform.app.request('/api/v1/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(document.headers.get('content-encoding')).toBe('gzip');
    const parsed = JSON.parse(gunzipSync(Buffer.from(await document.arrayBuffer())).toString()) as { openapi: string };
    expect(parsed.openapi).toBe('3.1.0');
    const plain = await platform.app.request('/api/v1/openapi.json');
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('answers a missing file with 404, not with the page: robots.txt is real, /favicon.ico and stale chunks are 404', async () => {
    const robots = await platform.app.request('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toContain('text/plain');
    expect(await robots.text()).toContain('Disallow: /');
    for (const missing of ['/favicon.ico', '/assets/gone-123.js', '/sitemap.xml']) {
      const response = await platform.app.request(missing);
      expect(response.status, missing).toBe(404);
      expect(response.headers.get('content-type'), missing).not.toContain('text/html');
    }
    // A client-side route still gets the page.
    expect((await platform.app.request('/spaces/spc_1/agents/app_1/runs/run_1')).status).toBe(200);
  });
});
