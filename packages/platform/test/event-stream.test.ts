import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type EventStreamWriter, streamWithPings } from '../src/http/sse.js';

/** An app whose one route streams with `write`. */
function appWith(write: (stream: EventStreamWriter, signal: AbortSignal) => Promise<void>) {
  const app = new Hono();
  app.get('/stream', (c) => streamWithPings(c, write));
  return app;
}

/** Reads a stream body to its end, as text. */
async function readAll(response: Response): Promise<string> {
  return await response.text();
}

// The platform's event streams (runs, A2A tasks) write into one ReadableStream (issue 34): what
// is written arrives whole and in order, a writer waits while the client does not read, and a
// client that goes away aborts the writer's signal.
describe('streamWithPings', () => {
  it('sends messages in the event-stream format, with the headers of an event stream', async () => {
    const app = appWith(async (stream) => {
      await stream.writeSSE({ event: 'greeting', id: '1', data: 'hello\nworld' });
      await stream.writeSSE({ data: '{"a":1}' });
      await stream.write(': comment\n\n');
    });
    const response = await app.request('/stream');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await readAll(response)).toBe('event: greeting\ndata: hello\ndata: world\nid: 1\n\ndata: {"a":1}\n\n: comment\n\n');
  });

  it('makes a writer wait while the client reads nothing, and loses nothing once it reads', async () => {
    let written = 0;
    let finished = false;
    const app = appWith(async (stream) => {
      for (let index = 0; index < 100; index += 1) {
        await stream.write(`data: ${index}\n\n`);
        written += 1;
      }
      finished = true;
    });
    const response = await app.request('/stream');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Back-pressure: the writer stopped after filling the queue.
    expect(finished).toBe(false);
    expect(written).toBeLessThan(100);
    const text = await readAll(response);
    expect(finished).toBe(true);
    expect(text).toBe(Array.from({ length: 100 }, (_, index) => `data: ${index}\n\n`).join(''));
  });

  it('aborts the signal when the client goes away, and a waiting writer returns', async () => {
    let aborted: () => void = () => {};
    const sawAbort = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const app = appWith(async (stream, signal) => {
      signal.addEventListener('abort', () => aborted());
      for (let index = 0; !signal.aborted; index += 1) await stream.write(`data: ${index}\n\n`);
    });
    const response = await app.request('/stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await sawAbort;
  });
});
