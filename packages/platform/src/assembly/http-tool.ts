import { jsonSchemaTool, type Tool } from '@agentloom/sdk';

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
 */
export function buildHttpTool(
  name: string,
  content: HttpToolContent,
  headers: Record<string, string>,
  fetchImplementation: typeof globalThis.fetch = fetch,
): Tool {
  return jsonSchemaTool<Record<string, unknown>>({
    name,
    description: content.description,
    parameters: content.parameters as Parameters<typeof jsonSchemaTool>[0]['parameters'],
    execute: async (args) => {
      const url = new URL(content.request.url);
      const isGet = content.request.method === 'GET';
      if (isGet && args && typeof args === 'object') {
        for (const [key, value] of Object.entries(args as Record<string, unknown>))
          url.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const response = await fetchImplementation(url, {
        method: content.request.method,
        headers: { ...(isGet ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(isGet ? {} : { body: JSON.stringify(args) }),
        signal: AbortSignal.timeout(content.timeoutMs),
      });
      const text = (await response.text()).slice(0, maximumResponseCharacters);
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 500)}`);
      return text;
    },
  });
}
