import { jsonSchemaTool, type Tool } from '@agentloom/sdk';
import { readBoundedText } from '../adapters/outbound/index.js';
import type { PinnedKind } from './pinned-resource.js';

/** A custom HTTP tool's stored content (see `toolContentSchema`). */
export interface HttpToolContent {
  kind: 'http';
  description: string;
  parameters: Record<string, unknown>;
  request: { method: string; url: string; headers: Record<string, string | { secret: string }> };
  timeoutMs: number;
}

/** The most response text a tool returns to the model. */
const maximumResponseCharacters = 20_000;

/**
 * Turns a custom HTTP tool into an SDK tool with `jsonSchemaTool` (the model sees the stored
 * JSON Schema unchanged; arguments are validated against it before any call), the arguments are sent as the JSON body (query for
 * GET), and secrets in headers are resolved here, at construction, never stored in the snapshot.
 * Each call carries its identity: `Idempotency-Key: <runId>:<operationId>`, and the two parts as
 * `X-AgentLoom-Run-Id` and `X-AgentLoom-Operation-Id`.
 */
export function buildHttpTool(
  name: string,
  content: HttpToolContent,
  headers: Record<string, string>,
  outboundFetch: typeof globalThis.fetch,
): Tool {
  return jsonSchemaTool<Record<string, unknown>>({
    name,
    description: content.description,
    parameters: content.parameters as Parameters<typeof jsonSchemaTool>[0]['parameters'],
    execute: async (args, context) => {
      const url = new URL(content.request.url);
      const isGet = content.request.method === 'GET';
      if (isGet && args && typeof args === 'object') {
        for (const [key, value] of Object.entries(args as Record<string, unknown>))
          url.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const response = await outboundFetch(url, {
        method: content.request.method,
        headers: {
          ...(isGet ? {} : { 'content-type': 'application/json' }),
          // The call's identity, stable across retries and recovery: the endpoint can make a
          // repeated call (an `unknown` outcome retried, X-7) do nothing twice.
          'idempotency-key': `${context.runId}:${context.operationId}`,
          'x-agentloom-run-id': context.runId,
          'x-agentloom-operation-id': context.operationId,
          ...headers,
        },
        ...(isGet ? {} : { body: JSON.stringify(args) }),
        signal: AbortSignal.timeout(content.timeoutMs),
      });
      const text = (await readBoundedText(response, maximumResponseCharacters * 4)).slice(0, maximumResponseCharacters);
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 500)}`);
      return text;
    },
  });
}

/**
 * The custom HTTP tool of a pinned resource version (`buildPinnedResource`): its headers' secrets
 * resolved at construction (never stored), built with `buildHttpTool`.
 */
export const pinnedHttpTool: PinnedKind<HttpToolContent> = {
  what: 'the tool',
  headersOf: (content) => content.request.headers,
  build: (content, headers, pinned, ports) => buildHttpTool(pinned.name, content, headers, ports.fetch),
};
