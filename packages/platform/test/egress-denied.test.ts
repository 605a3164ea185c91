/**
 * The egress policy's default deny on every outbound path of the platform (P-15.1, P-15.2): HTTP
 * tools, hooks, MCP servers (runs, workflow nodes and the test route), model providers (runs and
 * the connection test route) and completion webhooks. Every destination is tried on every path:
 * a literal internal address in any spelling and a non-http scheme are refused at the field (422
 * `egress-denied`, nothing saved); a name that resolves to an internal address and a redirect
 * from an allowed host to loopback pass the field and are refused at connection time — a typed
 * `egress-denied` in the run's events, the test route's answer or the delivery record. Real
 * listeners count their connections: nothing reaches them. One platform (SQLite) for the file:
 * the policy does not depend on the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOutboundAllow } from '../src/adapters/outbound/index.js';
import {
  connectDestinations,
  countedMcpServer,
  InternalService,
  literalDestinations,
  ok,
  publishAgent,
  publishMcpWorkflow,
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
/** The internal service every destination points at, and its IPv6-loopback twin (when this machine has one). */
let internal: InternalService;
let internalV6: InternalService | undefined;
/** Allowed by an exact `host:port` entry: the model of the runs, and a host that redirects. */
let runsModel: InternalService;
let redirector: InternalService;
let mcp: McpTestServer;
let mcpConnections: () => number;
let runsConnectionId: string;

/** Listeners nothing may reach. */
const untouched = () => internal.connections() + (internalV6?.connections() ?? 0) + mcpConnections();

/** Where the destinations point: `target` (and its IPv6 twin) must never be reached; `redirector` is allowed. */
const at = (target: number) => ({ target, v6: internalV6?.port, redirector: redirector.port });

beforeAll(async () => {
  internal = (await new InternalService().start()) as InternalService;
  internalV6 = await new InternalService('::1').start();
  runsModel = (await new InternalService().start()) as InternalService;
  redirector = (await new InternalService().start()) as InternalService;
  ({ mcp, connections: mcpConnections } = await countedMcpServer());
  platform = await createTestPlatform(
    'sqlite',
    {
      outbound: {
        allow: parseOutboundAllow(`127.0.0.1:${runsModel.port},127.0.0.1:${redirector.port}`).entries,
        allowPrivate: false,
      },
      webhookRetryMs: 600_000,
    },
    { resolveHost: testResolver({ 'internal.test': ['127.0.0.1'], 'v6.test': ['::1'], 'private.test': ['10.0.0.7'] }) },
  );
  await seedUser(platform, 'owner@example.com');
  owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
  const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Egress' }), 201);
  base = `/spaces/${space.id}`;
  make = resourceMaker(owner, base);
  runsConnectionId = (
    await ok<{ connection: { id: string } }>(make.connection('Runs', `http://127.0.0.1:${runsModel.port}/v1`), 201)
  ).connection.id;
  platform.startWorker();
});

afterAll(async () => {
  await platform.destroy();
  await Promise.all([internal.close(), internalV6?.close(), runsModel.close(), redirector.close(), mcp.close()]);
});

describe('at the field: a literal internal address or a non-http scheme is a 422 egress-denied when saved', () => {
  const fields: [string, (url: string) => Promise<{ status: number; body: unknown }>, string][] = [
    ['an HTTP tool', (url) => make.tool('tool', url), 'content.request.url'],
    ['a hook', (url) => make.hook('hook', url), 'content.url'],
    ['an MCP server', (url) => make.mcp('mcp', url), 'content.url'],
    ['a model connection', (url) => make.connection('model', url), 'baseUrl'],
  ];

  it.each(fields)('%s', async (_what, save, field) => {
    const before = JSON.stringify([
      (await owner.request('GET', `${base}/resources`)).body,
      (await owner.request('GET', `${base}/model-connections`)).body,
    ]);
    for (const [destination, url, rule] of literalDestinations(at(internal.port), '/tool')) {
      const refused = await save(url);
      expect(refused.status, `${destination}: ${JSON.stringify(refused.body)}`).toBe(422);
      expect(refused.body, destination).toMatchObject({ error: { code: 'egress-denied', details: { rule, field } } });
    }
    const after = JSON.stringify([
      (await owner.request('GET', `${base}/resources`)).body,
      (await owner.request('GET', `${base}/model-connections`)).body,
    ]);
    expect(after).toBe(before);
    expect(untouched()).toBe(0);
  });

  it("a run's webhook.url, checked before anything else in the request (no run is recorded)", async () => {
    const appId = await publishAgent(owner, base, 'Webhook field', { connectionId: runsConnectionId });
    const runsBefore = (await owner.request('GET', `/apps/${appId}/runs`)).body;
    for (const [destination, url, rule] of literalDestinations(at(internal.port), '/webhook')) {
      // The app has no webhook secret: the policy answers first all the same.
      const refused = await owner.request('POST', `/apps/${appId}/runs`, { input: 'go', webhook: { url } });
      expect(refused.status, `${destination}: ${JSON.stringify(refused.body)}`).toBe(422);
      expect(refused.body, destination).toMatchObject({
        error: { code: 'egress-denied', details: { rule, field: 'webhook.url' } },
      });
    }
    expect((await owner.request('GET', `/apps/${appId}/runs`)).body).toEqual(runsBefore);
    expect(untouched()).toBe(0);
  });
});

describe('at connection time: names and redirects that lead inside are refused on the address connected to', () => {
  it('HTTP tools and hooks: each call is a typed egress-denied failure in the run’s events; the run goes on', async () => {
    const destinations = connectDestinations(at(internal.port), '/tool');
    const tools: string[] = [];
    for (const [index, [, url]] of destinations.entries())
      tools.push((await ok<{ resource: { id: string } }>(make.tool(`tool-${index}`, url), 201)).resource.id);
    const hooks: string[] = [];
    for (const [index, [, url]] of connectDestinations(at(internal.port), '/hook').entries())
      hooks.push((await ok<{ resource: { id: string } }>(make.hook(`hook-${index}`, url), 201)).resource.id);
    const appId = await publishAgent(owner, base, 'Tools and hooks', { connectionId: runsConnectionId, tools, hooks });
    const redirectsBefore = redirector.connections();

    const { run, events } = await runToEnd(owner, appId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    // Every tool call failed with the refusal and its rule, final (not retried); the model read it and answered.
    for (const [index, [destination, , rule]] of destinations.entries()) {
      const finish = events.find((event) => event.type === 'tool-call-finish' && event.toolName === `tool-${index}`);
      expect(finish?.failure, destination).toMatchObject({
        kind: 'tool-error',
        code: 'egress-denied',
        retryable: false,
        message: expect.stringContaining(`rule ${rule}`),
      });
    }
    expect(events.filter((event) => event.type === 'tool-call-start')).toHaveLength(destinations.length);
    // Every hook call failed with the refusal too: the journal keeps its code on the hook's outcome
    // (a failed hook is skipped unless it fails closed, K-7).
    const outcomes = (await platform.services.runStore.readJournal(run.id)).flatMap((entry) => {
      const data = (entry as { type: string; data?: { outcomes?: { hook: string; code?: string; reason?: string }[] } }).data;
      return entry.type === 'tool-gated' ? (data?.outcomes ?? []) : [];
    });
    for (const [index, [destination, , rule]] of connectDestinations(at(internal.port), '/hook').entries()) {
      const seen = outcomes.filter((outcome) => outcome.hook === `hook-${index}`);
      expect(seen, destination).toHaveLength(destinations.length);
      for (const outcome of seen)
        expect(outcome, destination).toMatchObject({
          outcome: 'error',
          code: 'egress-denied',
          reason: expect.stringContaining(`rule ${rule}`),
        });
    }
    expect(run.output).toBe('done');
    // The redirecting host was reached (it is allowed); where it pointed was not.
    expect(redirector.connections()).toBeGreaterThan(redirectsBefore);
    expect(untouched()).toBe(0);
  });

  it('MCP servers: the test route answers 422 egress-denied with the rule; a run whose server is refused ends failed, egress-denied', async () => {
    for (const [index, [destination, url, rule]] of connectDestinations(at(Number(new URL(mcp.url).port)), '/mcp').entries()) {
      const { resource } = await ok<{ resource: { id: string } }>(make.mcp(`mcp-${index}`, url), 201);
      const tested = await owner.request('POST', `${base}/resources/${resource.id}/test`, { timeoutMs: 10_000 });
      expect(tested.status, `${destination}: ${JSON.stringify(tested.body)}`).toBe(422);
      expect(tested.body, destination).toMatchObject({
        error: { code: 'egress-denied', details: { rule, field: 'content.url' } },
      });
    }
    const [, url] = connectDestinations(at(Number(new URL(mcp.url).port)), '/mcp')[0] as [string, string, string];
    const { resource } = await ok<{ resource: { id: string } }>(make.mcp('mcp-run', url), 201);
    const appId = await publishAgent(owner, base, 'MCP agent', { connectionId: runsConnectionId, mcpServers: [resource.id] });
    const modelCalls = runsModel.paths.length;
    const { run, events } = await runToEnd(owner, appId);
    // Refused before any model call: the run ends at once instead of waiting for a retry that cannot help.
    expect(run.status, JSON.stringify(run)).toBe('failed');
    expect(run.reason).toBe('blocked');
    const finished = events.find((event) => event.type === 'run-finish');
    expect(finished?.result).toMatchObject({
      status: 'failed',
      failure: { kind: 'denied', code: 'egress-denied', message: expect.stringContaining('MCP server "mcp-run"') },
    });
    expect(JSON.stringify(finished?.result)).toContain('rule loopback');
    expect(runsModel.paths.length).toBe(modelCalls);
    expect(untouched()).toBe(0);
  });

  it('MCP tool nodes of a workflow: the node fails with the refusal', async () => {
    const [, url] = connectDestinations(at(Number(new URL(mcp.url).port)), '/mcp')[0] as [string, string, string];
    const { resource } = await ok<{ resource: { id: string } }>(make.mcp('mcp-flow', url), 201);
    const appId = await publishMcpWorkflow(owner, base, resource.id);
    const { run } = await runToEnd(owner, appId, { input: { question: 'launch' } });
    expect(run.status, JSON.stringify(run)).toBe('failed');
    const { view } = await ok<{ view: { workflow: { tasks: { failure?: Record<string, unknown> }[] } } }>(
      owner.request('GET', `/runs/${run.id}/view`),
      200,
    );
    expect(JSON.stringify(view.workflow.tasks)).toContain('egress-denied');
    expect(untouched()).toBe(0);
  });

  it('model providers: the connection test answers 422 egress-denied; a run on that connection fails with a typed, final model failure', async () => {
    for (const [index, [destination, url, rule]] of connectDestinations(at(internal.port), '/v1').entries()) {
      const { connection } = await ok<{ connection: { id: string } }>(make.connection(`model-${index}`, url), 201);
      const tested = await owner.request('POST', `${base}/model-connections/${connection.id}/test`, { modelId: 'm' });
      expect(tested.status, `${destination}: ${JSON.stringify(tested.body)}`).toBe(422);
      expect(tested.body, destination).toMatchObject({ error: { code: 'egress-denied', details: { rule, field: 'baseUrl' } } });
    }
    const [, url] = connectDestinations(at(internal.port), '/v1')[0] as [string, string, string];
    const { connection } = await ok<{ connection: { id: string } }>(make.connection('model-run', url), 201);
    const appId = await publishAgent(owner, base, 'Model agent', { connectionId: connection.id });
    const { run, events } = await runToEnd(owner, appId);
    expect(run.status, JSON.stringify(run)).toBe('failed');
    const failures = events.filter((event) => event.type === 'model-call-fail');
    // One attempt: a refusal is not retried as if the network had failed.
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      failure: { code: 'egress-denied', retryable: false, message: expect.stringContaining('rule loopback') },
    });
    expect(untouched()).toBe(0);
  });

  it('webhooks: a delivery to a name resolving inside, or redirected inside, fails at once with egress-denied', async () => {
    const appId = await publishAgent(owner, base, 'Webhook agent', { connectionId: runsConnectionId });
    await ok(owner.request('POST', `/apps/${appId}/webhook-secret`), 201);
    const [namedDestination, , , redirectDestination] = connectDestinations(at(internal.port), '/webhook');
    const named = namedDestination?.[1] as string;
    const redirect = redirectDestination?.[1] as string;
    const delivery = async (url: string) => {
      const { run } = await runToEnd(owner, appId, { webhook: { url } });
      let found: { state: string; attempts: Record<string, unknown>[] } | undefined;
      await waitUntil(async () => {
        found = (await ok<{ delivery: typeof found }>(owner.request('GET', `/runs/${run.id}/webhook`), 200)).delivery;
        return (found?.attempts.length ?? 0) > 0;
      });
      return found as NonNullable<typeof found>;
    };
    const refused = await delivery(named);
    // Final after one try: asking again cannot change the policy's answer.
    expect(refused.state).toBe('failed');
    expect(refused.attempts).toEqual([expect.objectContaining({ code: 'egress-denied', rule: 'loopback' })]);
    // Webhooks never follow a redirect; one that points inside is refused as such.
    const redirected = await delivery(redirect);
    expect(redirected.state).toBe('failed');
    expect(redirected.attempts).toEqual([expect.objectContaining({ code: 'egress-denied', rule: 'loopback' })]);
    expect(untouched()).toBe(0);
  });
});
