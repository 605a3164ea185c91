import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Tool } from '@agentloom/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** Listens on a free local port; answers the base URL. (Self-contained: the console's browser tests use this server too.) */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/**
 * A real MCP server over streamable HTTP (the `@modelcontextprotocol/sdk` server, on a free local
 * port) with two tools: `add` (a + b) and `search_notes` (a canned note about the query). It
 * counts tool calls and open sessions, so tests can see that a run's connection was closed
 * (the client ends its HTTP session with a DELETE). `requiredToken`, when set, refuses requests
 * without `Authorization: Bearer <token>` (401).
 */
export class McpTestServer {
  readonly server: Server;
  url = '';
  /** Calls per tool name, with their arguments. */
  readonly calls: { tool: string; arguments: Record<string, unknown> }[] = [];
  /** HTTP sessions initialised and not yet ended. */
  readonly sessions = new Map<string, StreamableHTTPServerTransport>();
  sessionsOpened = 0;

  /**
   * `served`: SDK tools offered as MCP tools too (each under its own name, its parameters an
   * object schema), so a test can move a tool of `examples/workflow` behind a real MCP server.
   */
  constructor(
    private readonly requiredToken?: string,
    private readonly served: readonly Tool[] = [],
  ) {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
    });
  }

  async start(): Promise<this> {
    this.url = `${await listen(this.server)}/mcp`;
    return this;
  }

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close().catch(() => undefined);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private newServer(): McpServer {
    const mcp = new McpServer({ name: 'platform-test', version: '1.0.0' }, { instructions: 'Notes and sums for tests.' });
    mcp.registerTool(
      'add',
      { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
      async (args: { a: number; b: number }) => {
        this.calls.push({ tool: 'add', arguments: args });
        return { content: [{ type: 'text' as const, text: String(args.a + args.b) }] };
      },
    );
    mcp.registerTool(
      'search_notes',
      { description: 'Finds the team notes about a topic.', inputSchema: { query: z.string() } },
      async (args: { query: string }) => {
        this.calls.push({ tool: 'search_notes', arguments: args });
        return { content: [{ type: 'text' as const, text: `notes about ${args.query}: ship on Friday` }] };
      },
    );
    for (const served of this.served) {
      mcp.registerTool(
        served.name,
        { description: served.description, inputSchema: (served.parameters as z.ZodObject<z.ZodRawShape>).shape },
        async (args: Record<string, unknown>, extra) => {
          this.calls.push({ tool: served.name, arguments: args });
          const operationId = `mcp-${String(extra.requestId)}`;
          const result = await served.execute(served.parameters.parse(args), {
            runId: '',
            sessionId: '',
            taskId: operationId,
            operationId,
            attempt: 1,
            signal: extra.signal,
          });
          return { content: [{ type: 'text' as const, text: typeof result === 'string' ? result : JSON.stringify(result) }] };
        },
      );
    }
    return mcp;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.requiredToken && request.headers.authorization !== `Bearer ${this.requiredToken}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorised"}');
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (request.method !== 'POST') {
      if (!existing) response.writeHead(404).end();
      else await existing.handleRequest(request, response);
      return;
    }
    const body = await readJson(request);
    if (existing) {
      await existing.handleRequest(request, response, body);
      return;
    }
    if (!isInitializeRequest(body)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such session"}');
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessionsOpened += 1;
        this.sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    await this.newServer().connect(transport);
    await transport.handleRequest(request, response, body);
  }
}

/** A local HTTP server that accepts connections and never answers (the timeout case). */
export async function startSilentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(() => {
    // Never answers.
  });
  const url = `${await listen(server)}/mcp`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
