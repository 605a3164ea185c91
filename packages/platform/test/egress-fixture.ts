import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { ResolveHost } from '../src/adapters/outbound/index.js';
import type { TestClient } from './harness.js';
import { McpTestServer } from './mcp-test-server.js';
import { parseSse, type RunBody } from './run-helpers.js';

/** A body no test-route answer may ever contain: what an internal service says. */
export const internalSecret = 'INTERNAL-SECRET-7c1e9a';

/** Counts the TCP connections a real listener accepts: the proof that nothing reached it. */
export function countConnections(server: Server): () => number {
  let count = 0;
  server.on('connection', () => {
    count += 1;
  });
  return () => count;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function streamChat(response: ServerResponse, delta: Record<string, unknown>, finish: string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (value: Record<string, unknown>, reason: string | null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: value, finish_reason: reason }] })}\n\n`;
  response.write(chunk({ role: 'assistant', ...delta }, null));
  response.write(chunk({}, finish));
  response.end('data: [DONE]\n\n');
}

/**
 * A real HTTP service standing for anything inside the network, on 127.0.0.1 or `::1`:
 * - `/redirect?to=<url>`: 307 to `url` (method and body kept);
 * - `/tool`: 200 JSON; `/hook`: 204 (no opinion); `/webhook`: 200;
 * - `/v1/chat/completions`: an OpenAI-compatible model. With tools offered and no tool result
 *   yet, it calls every tool at once; after, it answers `done`; without tools `pong`. The model
 *   ids `plain-400` and `json-400` answer errors whose bodies carry `internalSecret`;
 * - anything else: 500 with `internalSecret` as the body.
 */
export class InternalService {
  readonly server: Server;
  readonly connections: () => number;
  readonly paths: string[] = [];
  port = 0;

  constructor(private readonly host: '127.0.0.1' | '::1' = '127.0.0.1') {
    this.server = createServer((request, response) => {
      void this.answer(request, response);
    });
    this.connections = countConnections(this.server);
  }

  /** Starts listening; undefined when the address does not exist here (no IPv6 loopback). */
  async start(): Promise<this | undefined> {
    try {
      await new Promise<void>((resolve, reject) => {
        this.server.once('error', reject);
        this.server.listen(0, this.host, resolve);
      });
    } catch {
      return undefined;
    }
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://internal');
    this.paths.push(url.pathname);
    if (url.pathname === '/redirect') response.writeHead(307, { location: url.searchParams.get('to') ?? '/' }).end();
    else if (url.pathname === '/tool')
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"value":"tool ran"}');
    else if (url.pathname === '/hook') response.writeHead(204).end();
    else if (url.pathname === '/webhook') response.writeHead(200).end();
    else if (url.pathname.endsWith('/chat/completions')) this.chat(JSON.parse(body || '{}'), response);
    else response.writeHead(500, { 'content-type': 'text/plain' }).end(internalSecret);
  }

  private chat(
    body: { model?: string; tools?: { function: { name: string } }[]; messages?: { role: string }[] },
    response: ServerResponse,
  ) {
    if (body.model === 'plain-400') {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request: ${internalSecret}`);
      return;
    }
    if (body.model === 'json-400') {
      const message = `The model does not exist.\u0007\n${'x'.repeat(300)}`;
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'model_not_found' }, internal: internalSecret }),
      );
      return;
    }
    const tools = body.tools ?? [];
    const answered = (body.messages ?? []).some((message) => message.role === 'tool');
    if (tools.length > 0 && !answered)
      streamChat(
        response,
        {
          tool_calls: tools.map((tool, index) => ({
            index,
            id: `call_${index}`,
            type: 'function',
            function: { name: tool.function.name, arguments: '{}' },
          })),
        },
        'tool_calls',
      );
    else streamChat(response, { content: tools.length > 0 ? 'done' : 'pong' }, 'stop');
  }
}

/** A real MCP server (the MCP SDK's) whose TCP connections are counted. */
export async function countedMcpServer(): Promise<{ mcp: McpTestServer; connections: () => number }> {
  const mcp = new McpTestServer();
  const connections = countConnections(mcp.server);
  await mcp.start();
  return { mcp, connections };
}

/** Test names and what they resolve to: no DNS server is needed, and no other name resolves. */
export function testResolver(names: Record<string, string[]>): ResolveHost {
  return async (hostname) => {
    const found = names[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
}

export async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/** Creates resources of one space by type, answering their ids (or the refusal, when `status` says so). */
export function resourceMaker(owner: TestClient, base: string) {
  const create = (type: string, name: string, content: unknown) =>
    owner.request('POST', `${base}/resources`, { type, name, content });
  return {
    create,
    tool: (name: string, url: string) =>
      create('tool', name, {
        kind: 'http',
        description: `Calls ${name}.`,
        parameters: { type: 'object', properties: {} },
        request: { method: 'POST', url, headers: {} },
      }),
    hook: (name: string, url: string) => create('hook', name, { trigger: 'PreToolUse', kind: 'http', url }),
    mcp: (name: string, url: string) => create('mcp-server', name, { transport: 'streamable-http', url }),
    connection: (name: string, baseUrl: string) =>
      owner.request('POST', `${base}/model-connections`, {
        name,
        provider: 'openai-compatible',
        baseUrl,
        key: { label: 'main', value: 'sk-egress-test-key-0123456789' },
        models: [{ modelId: 'm' }],
      }),
  };
}

/** Creates, configures and publishes a ReAct agent; answers its app id. */
export async function publishAgent(
  owner: TestClient,
  base: string,
  name: string,
  config: { connectionId: string; tools?: string[]; hooks?: string[]; mcpServers?: string[] },
): Promise<string> {
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name }),
    201,
  );
  const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
  await ok(
    owner.request(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: config.connectionId, modelId: 'm' },
          prompt: { text: 'You call the tools you have.' },
          capabilities: { tools: config.tools ?? [], mcpServers: config.mcpServers ?? [] },
          hooks: config.hooks ?? [],
        },
      },
      { 'if-match': `"${draft.revision}"` },
    ),
    200,
  );
  await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: name }), 201);
  return app.id;
}

/** Creates and publishes a workflow of one MCP node (`search_notes` of the server bound as `notes`); answers its app id. */
export async function publishMcpWorkflow(owner: TestClient, base: string, resourceId: string): Promise<string> {
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `${base}/apps`, { kind: 'workflow', name: 'Flow' }),
    201,
  );
  const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
  const text = { reducer: 'last-value', schema: { type: 'string' } };
  const definition = {
    formatVersion: 1,
    kind: 'workflow',
    name: 'flow',
    state: { question: text, notes: text },
    nodes: [
      { name: 'query', kind: 'capability', server: 'notes', tool: 'search_notes', input: { query: 'question' }, output: 'notes' },
    ],
    edges: [
      { from: 'START', to: 'query' },
      { from: 'query', to: 'END' },
    ],
    output: ['notes'],
  };
  const config = { definition, bindings: { mcpServers: { notes: { resourceId } } } };
  await ok(owner.request('PUT', `/apps/${app.id}/draft`, { config }, { 'if-match': `"${draft.revision}"` }), 200);
  await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'flow' }), 201);
  return app.id;
}

/** One run event as `GET /runs/:id/events` replays it from the journal. */
export type RunEvent = {
  type: string;
  toolName?: string;
  failure?: Record<string, unknown>;
  result?: Record<string, unknown>;
} & Record<string, unknown>;

/** Runs an app to its end (blocking), answering the run and its whole event stream (replayed from the journal). */
export async function runToEnd(owner: TestClient, appId: string, extra: Record<string, unknown> = {}) {
  const finished = await owner.request('POST', `/apps/${appId}/runs?wait=60`, { input: 'go', mode: 'blocking', ...extra });
  expect(finished.status, JSON.stringify(finished.body)).toBe(200);
  const run = (finished.body as { run: RunBody }).run;
  const replay = await owner.request('GET', `/runs/${run.id}/events`);
  const events = parseSse(String(replay.body)).events.map((event) => event.data as RunEvent);
  return { run, events };
}

/** The listeners a destination table points at: `target` (and `v6`, its `::1` twin) and an allowed `redirector`. */
export interface DestinationPorts {
  target: number;
  v6: number | undefined;
  redirector: number;
}

/** URLs whose host is a literal internal address (any spelling) or a forbidden scheme: refused at the field, with their rule. */
export const literalDestinations = ({ target, v6 }: DestinationPorts, path: string): [string, string, string][] => [
  ['the metadata address', 'http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
  ['the IPv6 metadata address', 'http://[fd00:ec2::254]/latest/', 'cloud-metadata'],
  ['loopback', `http://127.0.0.1:${target}${path}`, 'loopback'],
  ['[::1]', `http://[::1]:${v6 ?? target}${path}`, 'loopback'],
  ['a decimal IP', `http://2130706433:${target}${path}`, 'loopback'],
  ['an octal IP', `http://0177.0.0.1:${target}${path}`, 'loopback'],
  ['an IPv4-mapped IPv6 address', `http://[::ffff:127.0.0.1]:${target}${path}`, 'loopback'],
  ['localhost', `http://localhost:${target}${path}`, 'loopback'],
  ['an RFC 1918 address', `http://10.0.0.7:${target}${path}`, 'private'],
  ['a carrier-grade NAT address', `http://100.64.0.1:${target}${path}`, 'carrier-grade-nat'],
  ['a file: URL', 'file:///etc/passwd', 'scheme'],
  ['a gopher: URL', `gopher://127.0.0.1:${target}/_GET`, 'scheme'],
];

/**
 * URLs that pass the field and are refused on the address connected to (names from
 * `testResolver`: `internal.test` → 127.0.0.1, `v6.test` → ::1, `private.test` → 10.0.0.7).
 */
export const connectDestinations = ({ target, v6, redirector }: DestinationPorts, path: string): [string, string, string][] => [
  ['a name resolving to loopback', `http://internal.test:${target}${path}`, 'loopback'],
  ['a name resolving to ::1', `http://v6.test:${v6 ?? target}${path}`, 'loopback'],
  ['a name resolving to an RFC 1918 address', `http://private.test:${target}${path}`, 'private'],
  [
    'a redirect from an allowed host to loopback',
    `http://127.0.0.1:${redirector}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${target}${path}`)}`,
    'loopback',
  ],
];
