/**
 * The same destinations as `egress-denied.test.ts` pass once an operator allows them with
 * `AGENTLOOM_OUTBOUND_ALLOW` (read by `loadConfig`, as `agentloom serve` reads it): saved, and
 * reached at connection time on every outbound path (P-15.1). Only the schemes stay refused. The
 * test routes still never echo what the remote service said (P-15.2). One platform (SQLite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import {
  countedMcpServer,
  InternalService,
  internalSecret,
  ok,
  publishAgent,
  resourceMaker,
  runToEnd,
  testResolver,
} from './egress-fixture.js';
import { createTestPlatform, seedUser, TestClient, type TestPlatform } from './harness.js';
import type { McpTestServer } from './mcp-test-server.js';
import { waitUntil } from './run-helpers.js';

let platform: TestPlatform;
let owner: TestClient;
let base: string;
let make: ReturnType<typeof resourceMaker>;
let internal: InternalService;
let internalV6: InternalService | undefined;
let redirector: InternalService;
let mcp: McpTestServer;
let mcpConnections: () => number;
const configDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-egress-config-'));

/**
 * Every URL the denied suite refuses (the schemes apart), now allowed: literal spellings, names, a
 * redirect. The `::1` ones only where this machine has an IPv6 loopback to listen on.
 */
const destinations = (port: number, path: string): [string, string][] => [
  ['loopback', `http://127.0.0.1:${port}${path}`],
  ['a decimal IP', `http://2130706433:${port}${path}`],
  ['an octal IP', `http://0177.0.0.1:${port}${path}`],
  ['an IPv4-mapped IPv6 address', `http://[::ffff:127.0.0.1]:${port}${path}`],
  ['localhost', `http://localhost:${port}${path}`],
  ['a name resolving to loopback', `http://internal.test:${port}${path}`],
  [
    'a redirect from an allowed host to loopback',
    `http://127.0.0.1:${redirector.port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port}${path}`)}`,
  ],
  ...(internalV6
    ? ([
        ['[::1]', `http://[::1]:${internalV6.port}${path}`],
        ['a name resolving to ::1', `http://v6.test:${internalV6.port}${path}`],
      ] as [string, string][])
    : []),
];

beforeAll(async () => {
  internal = (await new InternalService().start()) as InternalService;
  internalV6 = await new InternalService('::1').start();
  redirector = (await new InternalService().start()) as InternalService;
  ({ mcp, connections: mcpConnections } = await countedMcpServer());
  const config = loadConfig(
    {
      AGENTLOOM_DATA_DIR: configDirectory,
      AGENTLOOM_SECRET_KEY: 'egress-allowed-secret-key-0123456789abcdef',
      AGENTLOOM_OUTBOUND_ALLOW: '127.0.0.1, ::1, 169.254.169.254, [fd00:ec2::254], 10.0.0.0/8, 100.64.0.0/10',
    },
    {},
    configDirectory,
  );
  platform = await createTestPlatform(
    'sqlite',
    { outbound: config.outbound },
    { resolveHost: testResolver({ 'internal.test': ['127.0.0.1'], 'v6.test': ['::1'], localhost: ['127.0.0.1', '::1'] }) },
  );
  await seedUser(platform, 'owner@example.com');
  owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
  const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Egress allowed' }), 201);
  base = `/spaces/${space.id}`;
  make = resourceMaker(owner, base);
  platform.startWorker();
});

afterAll(async () => {
  await platform.destroy();
  await Promise.all([internal.close(), internalV6?.close(), redirector.close(), mcp.close()]);
  rmSync(configDirectory, { recursive: true, force: true });
});

describe('destinations allowed by AGENTLOOM_OUTBOUND_ALLOW pass on every outbound path', () => {
  it('are saved, the metadata and private addresses included; a non-http scheme stays refused', async () => {
    const saved = [
      ...destinations(internal.port, '/tool'),
      ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['the IPv6 metadata address', 'http://[fd00:ec2::254]/latest/'],
      ['an RFC 1918 address', 'http://10.0.0.7/'],
      ['a carrier-grade NAT address', 'http://100.64.0.1/'],
    ];
    for (const [destination, url] of saved) {
      expect((await make.tool('saved', url as string)).status, destination).toBe(201);
      expect((await make.connection('saved', url as string)).status, destination).toBe(201);
    }
    for (const url of ['file:///etc/passwd', `gopher://127.0.0.1:${internal.port}/_GET`])
      expect((await make.hook('scheme', url)).body).toMatchObject({
        error: { code: 'egress-denied', details: { rule: 'scheme' } },
      });
  });

  it('tools, hooks, the model and the webhook of one run reach their listeners', async () => {
    const tools: string[] = [];
    for (const [index, [, url]] of destinations(internal.port, '/tool').entries())
      tools.push((await ok<{ resource: { id: string } }>(make.tool(`tool-${index}`, url), 201)).resource.id);
    const hooks: string[] = [];
    for (const [index, [, url]] of destinations(internal.port, '/hook').entries())
      hooks.push((await ok<{ resource: { id: string } }>(make.hook(`hook-${index}`, url), 201)).resource.id);
    const model = await ok<{ connection: { id: string } }>(
      make.connection('named', `http://internal.test:${internal.port}/v1`),
      201,
    );
    const appId = await publishAgent(owner, base, 'Everything allowed', { connectionId: model.connection.id, tools, hooks });
    await ok(owner.request('POST', `/apps/${appId}/webhook-secret`), 201);
    const before = internal.paths.length + (internalV6?.paths.length ?? 0);

    const { run, events } = await runToEnd(owner, appId, { webhook: { url: `http://internal.test:${internal.port}/webhook` } });
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.output).toBe('done');
    for (const [index, [destination]] of destinations(internal.port, '/tool').entries()) {
      const finish = events.find((event) => event.type === 'tool-call-finish' && event.toolName === `tool-${index}`);
      expect(finish, destination).toMatchObject({ status: 'succeeded', content: '{"value":"tool ran"}' });
    }
    const reached = [...internal.paths, ...(internalV6?.paths ?? [])];
    expect(reached.length).toBeGreaterThan(before);
    expect(reached.filter((entry) => entry === '/tool')).toHaveLength(tools.length);
    // Each hook ran once per tool call.
    expect(reached.filter((entry) => entry === '/hook')).toHaveLength(tools.length * hooks.length);
    await waitUntil(async () => {
      const { delivery } = await ok<{ delivery: { state: string } }>(owner.request('GET', `/runs/${run.id}/webhook`), 200);
      return delivery.state === 'delivered';
    });
    expect(internal.paths).toContain('/webhook');
  });

  it('MCP: the test route lists the tools (by name, a decimal IP, localhost) and a run connects by name', async () => {
    const port = Number(new URL(mcp.url).port);
    const named = await ok<{ resource: { id: string } }>(make.mcp('named', `http://internal.test:${port}/mcp`), 201);
    const urls = [`http://internal.test:${port}/mcp`, `http://2130706433:${port}/mcp`, `http://localhost:${port}/mcp`];
    for (const url of urls) {
      const { resource } = await ok<{ resource: { id: string } }>(make.mcp('mcp', url), 201);
      const tested = await ok<{ tools: { name: string }[] }>(owner.request('POST', `${base}/resources/${resource.id}/test`), 200);
      expect(
        tested.tools.map((tool) => tool.name),
        url,
      ).toEqual(['add', 'search_notes']);
    }
    const model = await ok<{ connection: { id: string } }>(
      make.connection('mcp-model', `http://127.0.0.1:${internal.port}/v1`),
      201,
    );
    const appId = await publishAgent(owner, base, 'MCP allowed', {
      connectionId: model.connection.id,
      mcpServers: [named.resource.id],
    });
    const opened = mcp.sessionsOpened;
    const { run } = await runToEnd(owner, appId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(mcp.sessionsOpened).toBe(opened + 1);
    expect(mcpConnections()).toBeGreaterThan(0);
  });

  it('model connections: the test call answers through a name and a redirect', async () => {
    for (const [destination, url] of destinations(internal.port, '/v1')) {
      const { connection } = await ok<{ connection: { id: string } }>(make.connection('tested', url), 201);
      const tested = await ok<unknown>(
        owner.request('POST', `${base}/model-connections/${connection.id}/test`, { modelId: 'm' }),
        200,
      );
      expect(tested, destination).toEqual({ ok: true, text: 'pong' });
    }
  });
});

describe('the test routes never echo a remote body (P-15.2)', () => {
  it('MCP test: a server that answers an error body gets a fixed message with the status', async () => {
    const { resource } = await ok<{ resource: { id: string } }>(
      make.mcp('broken', `http://internal.test:${internal.port}/broken`),
      201,
    );
    const tested = await owner.request('POST', `${base}/resources/${resource.id}/test`);
    expect(tested.body).toEqual({
      error: {
        code: 'mcp-unreachable',
        message: 'The MCP server could not be reached (HTTP 500).',
        details: { httpStatus: 500 },
      },
    });
  });

  it('model test: a plain error body is never shown; a provider error JSON gives its type and a short, clean excerpt', async () => {
    const { connection } = await ok<{ connection: { id: string } }>(
      make.connection('erring', `http://127.0.0.1:${internal.port}/v1`),
      201,
    );
    const test = (modelId: string) =>
      ok<{ ok: boolean; failure: Record<string, unknown> }>(
        owner.request('POST', `${base}/model-connections/${connection.id}/test`, { modelId }),
        200,
      );
    expect(await test('plain-400')).toEqual({
      ok: false,
      failure: {
        kind: 'invalid-request',
        status: 400,
        message: 'The provider refused the request: check the model id and the base URL.',
      },
    });
    const json = await test('json-400');
    expect(json.failure).toMatchObject({ kind: 'invalid-request', status: 400, code: 'model_not_found' });
    const excerpt = String(json.failure.providerMessage);
    expect(excerpt.startsWith('The model does not exist. xxx')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect([...excerpt].some((character) => character.charCodeAt(0) < 32)).toBe(false);
  });

  it('no answer this client received holds what an internal service said', () => {
    for (const text of owner.bodies) expect(text).not.toContain(internalSecret);
  });
});
