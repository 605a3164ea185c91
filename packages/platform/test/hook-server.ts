import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { listen, readJson } from './scripted-servers.js';

/** One request a hook endpoint received. */
export interface HookCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: { trigger: string; identity: { runId: string; agentName: string }; subject: Record<string, unknown> };
}

/**
 * A real HTTP hook endpoint with one behaviour per path:
 * - `/deny-secrets`: a PreToolUse judge that denies a call whose `query` mentions "secret", else no opinion (204);
 * - `/redact`: a PostToolUse hook that replaces the result with `redacted(<result>)`;
 * - `/broken`: answers 500 (a hook failure, K-7);
 * - `/not-json`: answers 200 with a body that is not JSON (a hook failure too).
 * It records every request so tests can see the headers and the body the platform sent.
 */
export class HookServer {
  readonly server: Server;
  url = '';
  readonly calls: HookCall[] = [];

  constructor() {
    this.server = createServer((request, response) => {
      void readJson(request).then((body) => {
        const path = request.url ?? '/';
        this.calls.push({ path, headers: request.headers, body: body as unknown as HookCall['body'] });
        const subject = (body.subject ?? {}) as { arguments?: { query?: string }; result?: string };
        const json = (value: unknown) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(value));
        };
        if (path === '/deny-secrets') {
          if (String(subject.arguments?.query ?? '').includes('secret'))
            json({ decision: 'deny', reason: 'secrets are not looked up' });
          else response.writeHead(204).end();
        } else if (path === '/redact') json({ modify: { result: `redacted(${subject.result})` } });
        else if (path === '/not-json') response.writeHead(200, { 'content-type': 'text/plain' }).end('looks fine to me');
        else response.writeHead(500).end('hook endpoint broke');
      });
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
