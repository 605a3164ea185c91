import { EmbedderError } from '../errors/index.js';
import type { Embedder } from './embedder.js';

/** Options of `createOpenAICompatibleEmbedder`. */
export interface OpenAICompatibleEmbedderOptions {
  /** The API's base URL, up to and including the version: `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** The embedding model: `text-embedding-3-small`, `bge-m3` … */
  model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Asks the model for vectors of this length (models that support it). */
  dimensions?: number;
  /** Texts per request (default 128). */
  batchSize?: number;
  /** Longest wait for one request, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** The `fetch` to use (default the global one): inject one for tests, proxies or retries. */
  fetch?: typeof globalThis.fetch;
}

interface EmbeddingsResponse {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

/**
 * An `Embedder` over an OpenAI-compatible `POST {baseUrl}/embeddings` API (OpenAI, Azure's
 * compatible endpoint, vLLM, Ollama, text-embeddings-inference, …): `{ model, input: [texts],
 * encoding_format: "float" }` in, `{ data: [{ index, embedding }] }` out. It does not retry (wrap
 * `fetch` for that); a failed request, a non-2xx answer or an answer with the wrong number of
 * vectors throws `EmbedderError`.
 */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const url = `${options.baseUrl.replace(/\/+$/u, '')}/embeddings`;
  const batchSize = options.batchSize ?? 128;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.headers ?? {}) };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  const embedBatch = async (texts: readonly string[], signal: AbortSignal | undefined): Promise<number[][]> => {
    const body = {
      model: options.model,
      input: texts,
      encoding_format: 'float',
      ...(options.dimensions ? { dimensions: options.dimensions } : {}),
    };
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throw new EmbedderError(`embedding request to ${url} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new EmbedderError(`embedding request to ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    let parsed: EmbeddingsResponse;
    try {
      parsed = JSON.parse(text) as EmbeddingsResponse;
    } catch (error) {
      throw new EmbedderError(`embedding answer from ${url} is not JSON: ${text.slice(0, 120)}`, { cause: error });
    }
    const data = Array.isArray(parsed.data) ? parsed.data : [];
    const vectors: number[][] = new Array(texts.length);
    data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      const embedding = item.embedding;
      if (
        Array.isArray(embedding) &&
        embedding.every((value) => typeof value === 'number') &&
        index >= 0 &&
        index < texts.length
      ) {
        vectors[index] = embedding as number[];
      }
    });
    const missing = [...vectors.keys()].filter((index) => vectors[index] === undefined);
    if (data.length !== texts.length || missing.length > 0) {
      throw new EmbedderError(`embedding answer from ${url} has ${data.length} usable vectors for ${texts.length} texts`);
    }
    return vectors;
  };

  return {
    name: `openai-compatible:${options.model}`,
    embed: async (texts, callOptions) => {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await embedBatch(texts.slice(start, start + batchSize), callOptions?.signal)));
      }
      return vectors;
    },
  };
}
