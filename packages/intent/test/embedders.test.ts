/**
 * The embedders: the OpenAI-compatible adapter against a loopback server that speaks the
 * embeddings API (`POST /v1/embeddings`), and the deterministic offline one.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cosine, createHashingEmbedder, createOpenAICompatibleEmbedder, EmbedderError, understand } from '@agentloom/intent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Received {
  authorization: string | undefined;
  body: { model: string; input: string[]; encoding_format: string; dimensions?: number };
}

/** Vectors the server answers: a fixed table, else a vector from the text's length. */
const table: Record<string, number[]> = {
  'book a flight': [1, 0, 0],
  'weather today': [0, 0, 1],
  'I need to fly to Tokyo': [0.95, 0.05, 0.1],
};
let mode: 'ok' | 'error' | 'short' = 'ok';
const received: Received[] = [];
let server: Server;
let baseUrl: string;

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as Received['body'];
    received.push({ authorization: request.headers.authorization, body });
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      response.writeHead(404).end();
      return;
    }
    if (mode === 'error') {
      response.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"rate limited"}}');
      return;
    }
    const inputs = mode === 'short' ? body.input.slice(1) : body.input;
    // Answered in reverse order, as the API allows: the adapter must sort by `index`.
    const data = inputs
      .map((text, index) => ({ object: 'embedding', index, embedding: table[text] ?? [text.length, 1, 0] }))
      .reverse();
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createOpenAICompatibleEmbedder', () => {
  it('sends the embeddings API request in batches and puts the vectors back in order', async () => {
    mode = 'ok';
    received.length = 0;
    const embedder = createOpenAICompatibleEmbedder({
      baseUrl: `${baseUrl}/`,
      model: 'test-embed',
      apiKey: 'sk-test',
      batchSize: 2,
      dimensions: 3,
    });
    const vectors = await embedder.embed(['book a flight', 'x', 'weather today']);
    expect(vectors).toEqual([
      [1, 0, 0],
      [1, 1, 0],
      [0, 0, 1],
    ]);
    expect(received).toEqual([
      {
        authorization: 'Bearer sk-test',
        body: { model: 'test-embed', input: ['book a flight', 'x'], encoding_format: 'float', dimensions: 3 },
      },
      {
        authorization: 'Bearer sk-test',
        body: { model: 'test-embed', input: ['weather today'], encoding_format: 'float', dimensions: 3 },
      },
    ]);
    expect(embedder.name).toBe('openai-compatible:test-embed');
  });

  it('serves the similarity layer of understand over HTTP, through an injected fetch', async () => {
    mode = 'ok';
    const urls: string[] = [];
    const embedder = createOpenAICompatibleEmbedder({
      baseUrl,
      model: 'test-embed',
      fetch: (url, init) => {
        urls.push(String(url));
        return fetch(url, init);
      },
    });
    const catalog = {
      formatVersion: 1 as const,
      actions: [
        { ref: { kind: 'workflow' as const, id: 'book_flight' }, description: 'Flights.', examples: ['book a flight'] },
        { ref: { kind: 'agent' as const, id: 'weather' }, description: 'Weather.', examples: ['weather today'] },
      ],
      similarity: { threshold: 0.9 },
    };
    const result = await understand({ utterance: 'I need to fly to Tokyo', catalog, ports: { embedder } });
    expect(result).toMatchObject({
      commands: [{ type: 'start', action: { kind: 'workflow', id: 'book_flight' } }],
      decidedBy: 'similarity',
    });
    expect(urls).toEqual([`${baseUrl}/embeddings`, `${baseUrl}/embeddings`]);
  });

  it('reports an error answer, a wrong number of vectors and an unreachable server as EmbedderError', async () => {
    const embedder = createOpenAICompatibleEmbedder({ baseUrl, model: 'test-embed' });
    mode = 'error';
    await expect(embedder.embed(['a'])).rejects.toThrow(
      `embedding request to ${baseUrl}/embeddings answered 429: {"error":{"message":"rate limited"}}`,
    );
    mode = 'short';
    await expect(embedder.embed(['a', 'b'])).rejects.toThrow(EmbedderError);
    mode = 'ok';
    const closed = createOpenAICompatibleEmbedder({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2_000 });
    await expect(closed.embed(['a'])).rejects.toMatchObject({ code: 'embedder-failed' });
  });
});

describe('createHashingEmbedder (offline, deterministic)', () => {
  it('gives the same unit vector for the same text, in any instance', async () => {
    const [first] = await createHashingEmbedder().embed(['帮我订一张去上海的机票']);
    const [second] = await createHashingEmbedder().embed(['帮我订一张去上海的机票']);
    expect(second).toEqual(first);
    expect(Math.hypot(...(first as number[]))).toBeCloseTo(1, 10);
    expect(first).toHaveLength(1024);
  });

  it('scores texts that share words above texts that share none', async () => {
    const [query, near, far, nearEnglish, farEnglish] = await createHashingEmbedder().embed([
      '我想订明天去北京的机票',
      '订一张去北京的机票',
      '今天天气怎么样',
      'booking flights',
      'reset my password',
    ]);
    expect(cosine(query as number[], near as number[])).toBeGreaterThan(0.5);
    expect(cosine(query as number[], far as number[])).toBeLessThan(0.2);
    const [book] = await createHashingEmbedder().embed(['book a flight']);
    expect(cosine(book as number[], nearEnglish as number[])).toBeGreaterThan(cosine(book as number[], farEnglish as number[]));
  });
});
