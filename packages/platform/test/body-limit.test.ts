import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from './harness.js';

/** A body sent in chunks with no `Content-Length` (the length is only known once it is read). */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 1024));
      offset += 1024;
    },
  });
}

// The body limit runs before authentication: an oversized body is refused before anything reads
// it, whether it declares its length or streams it (issue 34 replaced Hono's middleware, which
// built the web Request of every request, by one that looks at the declared length first).
describe('the body limit (413 body-too-large)', () => {
  let platform: TestPlatform;
  let limit: number;
  beforeAll(async () => {
    platform = await createTestPlatform('sqlite');
    limit = platform.services.config.bodyLimitBytes;
  });
  afterAll(async () => {
    await platform?.destroy();
  });

  const post = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    platform.app.request('/api/v1/spaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

  it('refuses a declared length over the limit, and one within it goes on to authentication', async () => {
    const over = JSON.stringify({ name: 'x'.repeat(limit) });
    const refused = await post(over, { 'content-length': String(Buffer.byteLength(over)) });
    expect([refused.status, await codeOf(refused)]).toEqual([413, 'body-too-large']);
    const small = JSON.stringify({ name: 'small' });
    const passed = await post(small, { 'content-length': String(Buffer.byteLength(small)) });
    expect([passed.status, await codeOf(passed)]).toEqual([401, 'unauthenticated']);
  });

  it('counts a body of unknown length as it streams', async () => {
    const refused = await post(streamed(JSON.stringify({ name: 'x'.repeat(limit) })));
    expect([refused.status, await codeOf(refused)]).toEqual([413, 'body-too-large']);
    const passed = await post(streamed(JSON.stringify({ name: 'small' })));
    expect([passed.status, await codeOf(passed)]).toEqual([401, 'unauthenticated']);
  });
});
