import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from './harness.js';

// Issue 34: every JSON answer used to be gzipped (no Content-Length, so the middleware's 1 KiB
// threshold never applied), a zlib stream per request on the hot path of runs.
describe('compression of JSON answers', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform('sqlite');
  });
  afterAll(async () => {
    await platform?.destroy();
  });

  it('leaves a small answer alone, with its length, and gzips a large one', async () => {
    const small = await platform.app.request('/api/v1/runs/run_unknown', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(401);
    expect(small.headers.get('content-encoding')).toBeNull();
    const text = await small.text();
    expect(small.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'unauthenticated' } });

    const large = await platform.app.request('/api/v1/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(large.status).toBe(200);
    expect(large.headers.get('content-encoding')).toBe('gzip');
    const document = JSON.parse(gunzipSync(Buffer.from(await large.arrayBuffer())).toString('utf8')) as { openapi: string };
    expect(document.openapi).toMatch(/^3\./);
  });

  it('sends a large answer as it is to a client that accepts no compression (its body is then never read back)', async () => {
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'gzip;q=0, deflate;q=0' },
    ];
    for (const headers of refusals) {
      const large = await platform.app.request('/api/v1/openapi.json', { headers });
      expect(large.status).toBe(200);
      expect(large.headers.get('content-encoding')).toBeNull();
      // Caches still learn that the answer depends on the header.
      expect(large.headers.get('vary')).toBe('Accept-Encoding');
      expect((JSON.parse(await large.text()) as { openapi: string }).openapi).toMatch(/^3\./);
    }
    const weighted = await platform.app.request('/api/v1/openapi.json', {
      headers: { 'accept-encoding': 'br;q=1, deflate;q=0.5' },
    });
    expect(weighted.headers.get('content-encoding')).toBe('deflate');
    expect(weighted.headers.get('vary')).toBe('Accept-Encoding');
  });
});
