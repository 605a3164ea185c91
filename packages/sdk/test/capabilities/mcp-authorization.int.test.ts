/**
 * MCP authorization (N-8) against a real OAuth-protected MCP server built from the MCP SDK's own
 * server parts (`oauth-protected-server.ts`): a person signs in through the host's redirect
 * handler, or later through `completeMcpAuthorization` from a fresh token store (as another
 * process would); refusals and forged callbacks are typed and leave nothing half-done; expired
 * tokens are refreshed; two processes refreshing one sign-in at once do not lose it; discovery
 * failures are typed. The official conformance suite covers the rest (mcp-conformance.int).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completeMcpAuthorization,
  connectMcpServer,
  McpAuthorizationDiscoveryError,
  type McpAuthorizationRecord,
  McpAuthorizationRefusedError,
  McpAuthorizationRequiredError,
  type McpServerConnection,
  type McpServerOptions,
  type McpTokenStore,
  MemoryMcpTokenStore,
} from '../../src/capabilities/mcp/index.js';
import { callTool } from './capability-harness.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from './oauth-protected-server.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-mcp-auth-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A token store in a JSON file, as a host might write one: every instance reads the file afresh. */
class JsonFileTokenStore implements McpTokenStore {
  constructor(private readonly path: string) {}

  async load(server: string): Promise<McpAuthorizationRecord | undefined> {
    return this.all()[server];
  }

  async update(server: string, change: (current: McpAuthorizationRecord | undefined) => McpAuthorizationRecord | undefined) {
    const all = this.all();
    const next = change(all[server]);
    if (next) all[server] = next;
    else delete all[server];
    writeFileSync(this.path, JSON.stringify(all));
  }

  private all(): Record<string, McpAuthorizationRecord> {
    try {
      return JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, McpAuthorizationRecord>;
    } catch {
      return {};
    }
  }
}

/** The person's browser: opens the sign-in page and returns the parameters of the redirect back. */
async function browse(authorizationUrl: string | URL): Promise<URLSearchParams> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  if (!location) throw new Error(`no redirect from ${authorizationUrl} (${response.status})`);
  return new URL(location).searchParams;
}

let server: ProtectedMcpServer;
const connections: McpServerConnection[] = [];
beforeEach(async () => {
  server = await startProtectedMcpServer();
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  await server.close();
});

function options(store: McpTokenStore, redirect?: (url: URL) => Promise<URLSearchParams | undefined>): McpServerOptions {
  return {
    name: 'protected',
    transport: 'streamable-http',
    url: server.url,
    authorization: {
      grant: 'authorization-code',
      redirectUrl: 'http://127.0.0.1:9/callback',
      store,
      ...(redirect ? { redirect: ({ authorizationUrl }) => redirect(authorizationUrl) } : {}),
    },
  };
}

async function connect(serverOptions: McpServerOptions): Promise<McpServerConnection> {
  const connection = await connectMcpServer(serverOptions);
  connections.push(connection);
  return connection;
}

describe('MCP authorization: signing in', () => {
  it('signs a person in through the redirect handler (discovery, registration, PKCE) and keeps the sign-in in the store', async () => {
    const store = new MemoryMcpTokenStore();
    const asked: URL[] = [];
    const connection = await connect(
      options(store, async (url) => {
        asked.push(url);
        return browse(url);
      }),
    );
    const answer = String(await callTool(connection.tools, 'protected__whoami', {}));
    const record = await store.load('protected');
    expect(answer).toBe(`client=${record?.client?.client_id} scopes=mcp:tools`);
    expect(asked).toHaveLength(1);
    const request = asked[0] as URL;
    expect(request.searchParams.get('code_challenge_method')).toBe('S256');
    expect(request.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(request.searchParams.get('resource')).toBe(server.url);
    expect(request.searchParams.get('scope')).toBe('mcp:tools');
    expect(request.searchParams.get('state')).toMatch(/^[\w-]{32}$/);
    expect(record?.tokens?.refresh_token).toBeDefined();
    expect(record?.pending).toBeUndefined();
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });

    // Another connection over the same store needs no sign-in, and no handler.
    const again = await connect(options(store));
    expect(String(await callTool(again.tools, 'protected__whoami', {}))).toBe(answer);
    expect(server.counts.authorizations).toBe(1);
  });

  it('without a handler, fails with the URL to visit, and the sign-in completes from a fresh store over the same file', async () => {
    const path = join(directory, `tokens-${Date.now()}.json`);
    const failure = await connectMcpServer(options(new JsonFileTokenStore(path))).catch((error: unknown) => error);
    expect(McpAuthorizationRequiredError.isInstance(failure)).toBe(true);
    const required = failure as McpAuthorizationRequiredError;
    expect(required).toMatchObject({ code: 'mcp-authorization-required', server: 'protected', retryable: false });
    expect(new URL(required.authorizationUrl).searchParams.get('state')).toBe(required.state);
    const stored = (await new JsonFileTokenStore(path).load('protected'))?.pending;
    expect(stored).toMatchObject({ state: required.state, authorizationUrl: required.authorizationUrl });
    expect(stored?.codeVerifier).toMatch(/^[\w.~-]{43,128}$/);

    // Later, as another process would: a new store instance, the callback's parameters.
    const callback = await browse(required.authorizationUrl);
    await completeMcpAuthorization(options(new JsonFileTokenStore(path)), callback);
    const record = await new JsonFileTokenStore(path).load('protected');
    expect(record?.pending).toBeUndefined();
    expect(record?.tokens?.access_token).toBeDefined();

    const connection = await connect(options(new JsonFileTokenStore(path)));
    expect(String(await callTool(connection.tools, 'protected__whoami', {}))).toContain('scopes=mcp:tools');
    expect(server.counts).toMatchObject({ authorizations: 1, codeExchanges: 1 });
  });
});

describe('MCP authorization: refusals are typed and leave nothing half-done', () => {
  it('reports a declined consent as access_denied and keeps no tokens nor flow', async () => {
    server.consent = 'deny';
    const store = new MemoryMcpTokenStore();
    const failure = await connectMcpServer(options(store, browse)).catch((error: unknown) => error);
    expect(McpAuthorizationRefusedError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ reason: 'access_denied', retryable: false });
    const record = await store.load('protected');
    expect(record?.tokens).toBeUndefined();
    expect(record?.pending).toBeUndefined();
  });

  it('reports a server that rejects the tokens it was just given as token-rejected, after one refresh', async () => {
    const store = new MemoryMcpTokenStore();
    await (await connectMcpServer(options(store, browse))).close();
    server.acceptTokens = false;
    const failure = await connectMcpServer(options(store, browse)).catch((error: unknown) => error);
    expect(McpAuthorizationRefusedError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ reason: 'token-rejected', retryable: false });
    expect(server.counts).toMatchObject({ authorizations: 1, refreshes: 1 });
  });

  it('refuses a callback with another state, keeps the flow for the genuine one, and refuses a callback with no flow', async () => {
    const store = new MemoryMcpTokenStore();
    const required = (await connectMcpServer(options(store)).catch((error: unknown) => error)) as McpAuthorizationRequiredError;
    const genuine = await browse(required.authorizationUrl);
    const forged = new URLSearchParams({ code: genuine.get('code') ?? '', state: 'forged' });
    const mismatch = await completeMcpAuthorization(options(store), forged).catch((error: unknown) => error);
    expect(mismatch).toMatchObject({ code: 'mcp-authorization-refused', reason: 'state-mismatch' });
    expect((await store.load('protected'))?.pending?.state).toBe(required.state);

    await completeMcpAuthorization(options(store), genuine);
    const none = await completeMcpAuthorization(options(store), genuine).catch((error: unknown) => error);
    expect(none).toMatchObject({ code: 'mcp-authorization-refused', reason: 'no-authorization-under-way' });
    expect(server.counts.codeExchanges).toBe(1);
  });
});

describe('MCP authorization: refresh', () => {
  it('refreshes an expired access token and stores the rotated tokens, without a second sign-in', async () => {
    const store = new MemoryMcpTokenStore();
    const connection = await connect(options(store, browse));
    const before = (await store.load('protected'))?.tokens;
    server.expireAccessTokens();
    expect(String(await callTool(connection.tools, 'protected__whoami', {}))).toContain('scopes=mcp:tools');
    const after = (await store.load('protected'))?.tokens;
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    expect(server.counts).toMatchObject({ authorizations: 1, refreshes: 1 });
  });

  it('two processes refreshing one sign-in at once: the one that loses the rotation takes the other’s tokens', async () => {
    const store = new MemoryMcpTokenStore();
    const first = await connect(options(store, browse));
    // The second has no redirect handler: needing the person again would fail it.
    const second = await connect(options(store));
    server.expireAccessTokens();
    server.holdRefreshes(2);
    const answers = await Promise.all([first, second].map((connection) => callTool(connection.tools, 'protected__whoami', {})));
    expect(answers.map(String)).toEqual([expect.stringContaining('mcp:tools'), expect.stringContaining('mcp:tools')]);
    expect(server.counts).toMatchObject({ authorizations: 1, refusedRefreshes: 1 });
  });

  it('two calls of one connection refreshing at once: each keeps its own flow, and neither asks the person again', async () => {
    const store = new MemoryMcpTokenStore();
    await (await connectMcpServer(options(store, browse))).close();
    const connection = await connect(options(store));
    server.expireAccessTokens();
    server.holdRefreshes(2);
    const answers = await Promise.all([1, 2].map(() => callTool(connection.tools, 'protected__whoami', {})));
    expect(answers.map(String)).toEqual([expect.stringContaining('mcp:tools'), expect.stringContaining('mcp:tools')]);
    expect(server.counts).toMatchObject({ authorizations: 1, refusedRefreshes: 1 });
  });
});

describe('MCP authorization: discovery failures', () => {
  let plain: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (plain ? plain.close(() => resolve()) : resolve()));
    plain = undefined;
  });

  /** A server answering 401 to MCP requests, with the given metadata documents. */
  async function unauthorizedServer(documents: Record<string, (base: string) => [number, unknown]>): Promise<string> {
    const started = createServer((request, response) => {
      const base = `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
      const document = documents[request.url ?? ''];
      if (document) {
        const [status, body] = document(base);
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      if (request.url === '/mcp') {
        response.writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        });
        response.end();
        return;
      }
      response.writeHead(404).end();
    });
    plain = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(started.address() as AddressInfo).port}/mcp`;
  }

  it('fails typed when the protected-resource metadata names another resource', async () => {
    const url = await unauthorizedServer({
      '/.well-known/oauth-protected-resource/mcp': (base) => [
        200,
        { resource: 'https://elsewhere.example/mcp', authorization_servers: [base] },
      ],
    });
    const failure = await connectMcpServer({ ...options(new MemoryMcpTokenStore(), browse), url } as McpServerOptions).catch(
      (error: unknown) => error,
    );
    expect(McpAuthorizationDiscoveryError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ server: 'protected', retryable: false });
  });

  it('fails typed when the authorization server metadata cannot be read', async () => {
    const url = await unauthorizedServer({
      '/.well-known/oauth-protected-resource/mcp': (base) => [200, { resource: `${base}/mcp`, authorization_servers: [base] }],
      '/.well-known/oauth-authorization-server': () => [500, { error: 'down' }],
    });
    const failure = await connectMcpServer({ ...options(new MemoryMcpTokenStore(), browse), url } as McpServerOptions).catch(
      (error: unknown) => error,
    );
    expect(McpAuthorizationDiscoveryError.isInstance(failure)).toBe(true);
  });
});

describe('MCP authorization: configuration', () => {
  it('refuses a client-credentials grant with both or neither of a secret and a key', async () => {
    for (const credentials of [{}, { clientSecret: 's', privateKey: { key: 'k', algorithm: 'ES256' } }]) {
      const failure = await connectMcpServer({
        name: 'protected',
        transport: 'streamable-http',
        url: server.url,
        authorization: { grant: 'client-credentials', clientId: 'machine', ...credentials },
      }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'invalid-configuration' });
    }
    expect(server.counts.authorizations).toBe(0);
  });
});
