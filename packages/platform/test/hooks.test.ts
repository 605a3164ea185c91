import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { HookServer } from './hook-server.js';
import type { RunBody } from './run-helpers.js';
import { CountingToolServer } from './scripted-servers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

describe.each(dialects)('hook resources in agent runs on %s (K-4, K-6, K-7)', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ToolCallingModelServer;
  let tool: CountingToolServer;
  let hooks: HookServer;
  let base: string;
  let connectionId: string;
  let toolId: string;

  const createHook = async (name: string, content: Record<string, unknown>) =>
    (await ok<{ resource: { id: string } }>(owner.request('POST', `${base}/resources`, { type: 'hook', name, content }), 201))
      .resource.id;

  /** Creates a ReAct agent with the `lookup` tool and `hookIds`, publishes it and answers the app and release ids. */
  const publishAgent = async (name: string, hookIds: string[]) => {
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
            model: { connectionId, modelId: 'scripted' },
            prompt: { text: 'You look things up.' },
            capabilities: { tools: [toolId] },
            hooks: hookIds,
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    const published = await owner.request('POST', `/apps/${app.id}/releases`, { notes: name });
    return { appId: app.id, published };
  };

  const run = async (appId: string, query: string): Promise<RunBody> => {
    const input = `call lookup {"query":"${query}"}`;
    const finished = await owner.request('POST', `/apps/${appId}/runs?wait=60`, { input, mode: 'blocking' });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    return (finished.body as { run: RunBody }).run;
  };

  beforeAll(async () => {
    model = await new ToolCallingModelServer().start();
    tool = await new CountingToolServer().start();
    hooks = await new HookServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Hooks' }), 201);
    base = `/spaces/${space.id}`;
    const created = await ok<{ connection: { id: string } }>(
      owner.request('POST', `${base}/model-connections`, {
        name: 'Scripted',
        provider: 'openai-compatible',
        baseUrl: `${model.url}/v1`,
        key: { label: 'main', value: 'sk-scripted-key-0123456789' },
        models: [{ modelId: 'scripted' }],
      }),
      201,
    );
    connectionId = created.connection.id;
    toolId = (
      await ok<{ resource: { id: string } }>(
        owner.request('POST', `${base}/resources`, {
          type: 'tool',
          name: 'lookup',
          content: {
            kind: 'http',
            description: 'Looks something up.',
            parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
            request: { method: 'POST', url: `${tool.url}/lookup`, headers: {} },
          },
        }),
        201,
      )
    ).resource.id;
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await model.close();
    await tool.close();
    await hooks.close();
  });

  it('pins the hooks in the release; a PreToolUse webhook denies a call (the tool never runs) and a PostToolUse webhook rewrites a result', async () => {
    await ok(owner.request('POST', `${base}/secrets`, { name: 'HOOK_TOKEN', value: 'Bearer hook-token-51c2' }), 201);
    const judge = await createHook('judge', {
      trigger: 'PreToolUse',
      kind: 'http',
      url: `${hooks.url}/deny-secrets`,
      headers: { Authorization: { secret: 'HOOK_TOKEN' } },
      matcher: ['lookup'],
    });
    const redact = await createHook('redact', { trigger: 'PostToolUse', kind: 'http', url: `${hooks.url}/redact` });
    const { appId, published } = await publishAgent('Guarded agent', [judge, redact]);
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const releaseId = (published.body as { release: { id: string } }).release.id;
    const release = await platform.services.database
      .selectFrom('app_releases')
      .select('config_snapshot')
      .where('id', '=', releaseId)
      .executeTakeFirstOrThrow();
    const snapshotText = release.config_snapshot;
    expect(JSON.parse(snapshotText).hooks).toEqual([
      { resourceId: judge, version: 1, name: 'judge' },
      { resourceId: redact, version: 1, name: 'redact' },
    ]);
    expect(snapshotText).not.toContain('hook-token-51c2');

    const secretQuery = `secret plans ${dialect}`;
    const denied = await run(appId, secretQuery);
    expect(denied.status, JSON.stringify(denied)).toBe('succeeded');
    expect(denied.output).toContain('secrets are not looked up');
    expect(tool.calls.has(secretQuery)).toBe(false);
    const judged = hooks.calls.filter((call) => call.body.identity?.runId === denied.id);
    expect(judged.map((call) => call.path)).toEqual(['/deny-secrets']);
    expect(judged[0]?.headers.authorization).toBe('Bearer hook-token-51c2');
    expect(judged[0]?.headers['x-agentloom-run-id']).toBe(denied.id);
    expect(judged[0]?.body).toMatchObject({
      trigger: 'PreToolUse',
      identity: { runId: denied.id },
      subject: { toolName: 'lookup', arguments: { query: secretQuery } },
    });

    const allowedQuery = `weather ${dialect}`;
    const allowed = await run(appId, allowedQuery);
    expect(allowed.status, JSON.stringify(allowed)).toBe('succeeded');
    expect(tool.calls.get(allowedQuery)).toBe(1);
    const found = JSON.stringify({ value: `found ${allowedQuery.length}` });
    expect(allowed.output).toBe(`answer: redacted(${found})`);
    const seen = hooks.calls.filter((call) => call.body.identity?.runId === allowed.id);
    expect(seen.map((call) => [call.path, call.body.trigger])).toEqual([
      ['/deny-secrets', 'PreToolUse'],
      ['/redact', 'PostToolUse'],
    ]);
    expect(seen[1]?.body.subject).toMatchObject({ toolName: 'lookup', result: found });
  });

  it('skips a failing hook unless it fails closed: a 500 or a non-JSON answer lets the call run, failClosed denies it', async () => {
    const broken = await createHook('broken', { trigger: 'PreToolUse', kind: 'http', url: `${hooks.url}/broken` });
    const babbling = await createHook('babbling', { trigger: 'PreToolUse', kind: 'http', url: `${hooks.url}/not-json` });
    const open = await publishAgent('Fails open', [broken, babbling]);
    expect(open.published.status, JSON.stringify(open.published.body)).toBe(201);
    const openQuery = `open ${dialect}`;
    const ran = await run(open.appId, openQuery);
    expect(ran.status, JSON.stringify(ran)).toBe('succeeded');
    expect(tool.calls.get(openQuery)).toBe(1);
    expect(ran.output).toBe(`answer: ${JSON.stringify({ value: `found ${openQuery.length}` })}`);
    expect(
      hooks.calls.filter((call) => call.body.identity?.runId === ran.id).map((call) => call.headers['x-agentloom-run-id']),
    ).toEqual([ran.id, ran.id]);

    const strict = await createHook('strict', {
      trigger: 'PreToolUse',
      kind: 'http',
      url: `${hooks.url}/broken`,
      failClosed: true,
    });
    const closed = await publishAgent('Fails closed', [strict]);
    expect(closed.published.status, JSON.stringify(closed.published.body)).toBe(201);
    const closedQuery = `closed ${dialect}`;
    const refused = await run(closed.appId, closedQuery);
    expect(refused.status, JSON.stringify(refused)).toBe('succeeded');
    expect(tool.calls.has(closedQuery)).toBe(false);
    expect(refused.output).toContain('hook strict failed (error) and fails closed');
  });

  it('refuses to publish an agent whose hook names a missing secret, at the hook', async () => {
    const hook = await createHook('needs-secret', {
      trigger: 'Stop',
      kind: 'http',
      url: `${hooks.url}/redact`,
      headers: { Authorization: { secret: 'NO_SUCH_HOOK_SECRET' } },
    });
    const { published } = await publishAgent('Missing hook secret', [hook]);
    expect(published.status, JSON.stringify(published.body)).toBe(422);
    expect((published.body as { error: { code: string; details: unknown } }).error).toMatchObject({
      code: 'release-build-failed',
      details: { issues: [expect.objectContaining({ path: 'hooks.0' })] },
    });
  });
});
