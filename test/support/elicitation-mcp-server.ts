import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type ElicitRequestFormParams, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The form `book_table` asks for: MCP's restricted schema (string, integer, enum, boolean), with defaults. */
export const bookingForm: Record<string, unknown> = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1 },
    guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12 },
    seating: { type: 'string', title: 'Seating', enum: ['indoor', 'outdoor'], default: 'indoor' },
    vegetarian: { type: 'boolean', title: 'Vegetarian menu', default: false },
  },
  required: ['name', 'guests'],
};

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/**
 * A real MCP server over streamable HTTP (the official `@modelcontextprotocol/sdk` server on a free
 * local port), shared by the SDK's, the platform's and the console's elicitation tests: its tool
 * `book_table` asks the user for the booking with `elicitation/create` during the call
 * (`bookingForm`) and answers with what it received — the content of an accepted form (as the
 * server got it, defaults included), or the decline / cancel. It counts the calls it received and
 * keeps the answers, so a test sees a call was never sent twice.
 */
export class ElicitationMcpServer {
  readonly server: Server;
  url = '';
  readonly calls: { date: string }[] = [];
  readonly answers: { action: string; content?: Record<string, unknown> }[] = [];
  /** While set, the tool holds its result back after the answer (so a test sees the run still running). */
  hold: Promise<void> | undefined;
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();

  constructor() {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
    return this;
  }

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close().catch(() => undefined);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private newServer(): McpServer {
    const mcp = new McpServer({ name: 'restaurant', version: '1.0.0' });
    mcp.registerTool(
      'book_table',
      { description: 'Books a table; asks the user for the details.', inputSchema: { date: z.string() } },
      async (args: { date: string }) => {
        this.calls.push(args);
        const answer = await mcp.server.elicitInput(
          {
            mode: 'form',
            message: `Who is the table on ${args.date} for?`,
            requestedSchema: bookingForm as ElicitRequestFormParams['requestedSchema'],
          },
          { timeout: 600_000 },
        );
        this.answers.push({ action: answer.action, ...(answer.content ? { content: answer.content } : {}) });
        await this.hold;
        const text =
          answer.action === 'accept'
            ? `booked on ${args.date}: ${JSON.stringify(answer.content)}`
            : `not booked (${answer.action})`;
        return { content: [{ type: 'text' as const, text }] };
      },
    );
    return mcp;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
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
