import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { McpTestServer, startSilentServer } from './mcp-test-server.js';
import { type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { listen } from './scripted-servers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/** A URL on which nothing listens: a port taken and released again. */
async function closedUrl(): Promise<string> {
  const { createServer } = await import('node:http');
  const server = createServer();
  const url = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `${url}/mcp`;
}

describe.each(dialects)('MCP server resources on %s: the list-tools test call', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let mcp: McpTestServer;
  let guarded: McpTestServer;
  let base: string;
  const createServerResource = async (name: string, content: unknown) =>
    (
      await ok<{ resource: { id: string } }>(
        owner.request('POST', `${base}/resources`, { type: 'mcp-server', name, content }),
        201,
      )
    ).resource.id;
  const test = (resourceId: string, body?: unknown) => owner.request('POST', `${base}/resources/${resourceId}/test`, body);

  beforeAll(async () => {
    mcp = await new McpTestServer().start();
    guarded = await new McpTestServer('mcp-token-7f3a9c').start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'MCP' }), 201);
    base = `/spaces/${space.id}`;
  });
  afterAll(async () => {
    await platform.destroy();
    await mcp.close();
    await guarded.close();
  });

  it('connects to a real streamable-HTTP server, lists its tools and ends the session', async () => {
    const id = await createServerResource('Team notes', { transport: 'streamable-http', url: mcp.url });
    const opened = mcp.sessionsOpened;
    const body = await ok<{
      server: string;
      instructions: string | null;
      tools: { name: string; modelName: string; description: string }[];
    }>(test(id), 200);
    expect(body.server).toBe('Team-notes');
    expect(body.instructions).toBe('Notes and sums for tests.');
    expect(body.tools).toEqual([
      { name: 'add', modelName: 'Team-notes__add', description: 'Adds two numbers.' },
      { name: 'search_notes', modelName: 'Team-notes__search_notes', description: 'Finds the team notes about a topic.' },
    ]);
    expect(mcp.sessionsOpened).toBe(opened + 1);
    expect(mcp.sessions.size).toBe(0);
    expect(mcp.calls).toEqual([]);
  });

  it('sends header secrets resolved at the call; a missing secret is a 422, a refused request a 502 mcp-refused', async () => {
    const id = await createServerResource('Guarded', {
      transport: 'streamable-http',
      url: guarded.url,
      headers: { Authorization: { secret: 'MCP_BEARER' } },
    });
    const missing = await test(id);
    expect(missing.status).toBe(422);
    expect((missing.body as { error: { code: string } }).error.code).toBe('secret-missing');
    await ok(owner.request('POST', `${base}/secrets`, { name: 'MCP_BEARER', value: 'Bearer wrong-token' }), 201);
    const refused = await test(id);
    expect(refused.status, JSON.stringify(refused.body)).toBe(502);
    expect((refused.body as { error: { code: string; details: unknown } }).error).toMatchObject({
      code: 'mcp-refused',
      details: { httpStatus: 401 },
    });
    const secrets = await ok<{ secrets: { id: string; name: string }[] }>(owner.request('GET', `${base}/secrets`), 200);
    const secretId = secrets.secrets.find((secret) => secret.name === 'MCP_BEARER')?.id;
    await ok(owner.request('DELETE', `${base}/secrets/${secretId}`), 200);
    await ok(owner.request('POST', `${base}/secrets`, { name: 'MCP_BEARER', value: 'Bearer mcp-token-7f3a9c' }), 201);
    const body = await ok<{ tools: { name: string }[] }>(test(id), 200);
    expect(body.tools.map((tool) => tool.name)).toEqual(['add', 'search_notes']);
    for (const text of owner.bodies) expect(text).not.toContain('mcp-token-7f3a9c');
  });

  it('answers 502 mcp-unreachable when nothing listens, and 504 mcp-timeout when the server never answers', async () => {
    const unreachable = await createServerResource('Nowhere', { transport: 'streamable-http', url: await closedUrl() });
    const refused = await test(unreachable);
    expect(refused.status, JSON.stringify(refused.body)).toBe(502);
    expect((refused.body as { error: { code: string } }).error.code).toBe('mcp-unreachable');

    const silent = await startSilentServer();
    try {
      const id = await createServerResource('Silent', { transport: 'streamable-http', url: silent.url });
      const timedOut = await test(id, { timeoutMs: 300 });
      expect(timedOut.status, JSON.stringify(timedOut.body)).toBe(504);
      expect((timedOut.body as { error: { code: string } }).error.code).toBe('mcp-timeout');
    } finally {
      await silent.close();
    }
  });

  it('refuses other resource types and bad bodies with typed 4xx', async () => {
    const prompt = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, { type: 'prompt', name: 'P', content: { text: 'x' } }),
      201,
    );
    const refused = await test(prompt.resource.id);
    expect(refused.status).toBe(422);
    expect((refused.body as { error: { code: string } }).error.code).toBe('test-not-supported');
    const id = await createServerResource('Bad body', { transport: 'streamable-http', url: mcp.url });
    const bad = await test(id, { timeoutMs: 5 });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { code: string } }).error.code).toBe('invalid-request');
  });
});

describe.each(dialects)('MCP servers in agent runs on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let mcp: McpTestServer;
  let model: ToolCallingModelServer;
  let base: string;
  let connectionId: string;

  beforeAll(async () => {
    mcp = await new McpTestServer().start();
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'MCP runs' }), 201);
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
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await mcp.close();
    await model.close();
  });

  it('publishes an agent using an MCP server resource; a run connects, calls the real tool and closes the session after', async () => {
    const server = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Team notes',
        content: { transport: 'streamable-http', url: mcp.url },
      }),
      201,
    );
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Notes agent' }),
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
            prompt: { text: 'You answer from the team notes.' },
            capabilities: { mcpServers: [server.resource.id] },
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    const opened = mcp.sessionsOpened;
    const published = await ok<{ release: { id: string } }>(
      owner.request('POST', `/apps/${app.id}/releases`, { notes: 'MCP' }),
      201,
    );
    // Publishing builds the agent as a dry run and connects nothing (P-1.8).
    expect(mcp.sessionsOpened).toBe(opened);
    const release = await platform.services.database
      .selectFrom('app_releases')
      .select('config_snapshot')
      .where('id', '=', published.release.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(release.config_snapshot).entry.mcpServers).toEqual([
      { resourceId: server.resource.id, version: 1, name: 'Team-notes' },
    ]);

    const input = `call Team-notes__search_notes {"query":"launch ${dialect}"}`;
    const finished = await owner.request('POST', `/apps/${app.id}/runs?wait=60`, { input, mode: 'blocking' });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    const run = (finished.body as { run: RunBody }).run;
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.output).toBe(`answer: notes about launch ${dialect}: ship on Friday`);
    expect(mcp.calls).toContainEqual({ tool: 'search_notes', arguments: { query: `launch ${dialect}` } });
    expect(model.offered.at(-1)).toEqual(expect.arrayContaining(['Team-notes__add', 'Team-notes__search_notes']));
    // Connected at run start, closed after: the run's HTTP session ends with the run.
    expect(mcp.sessionsOpened).toBe(opened + 1);
    await waitUntil(() => mcp.sessions.size === 0);
  });
  it('refuses to publish an agent whose MCP server names a missing secret, listing it at the role', async () => {
    const server = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Secret notes',
        content: { transport: 'streamable-http', url: mcp.url, headers: { Authorization: { secret: 'NO_SUCH_SECRET' } } },
      }),
      201,
    );
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Secretive agent' }),
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
            prompt: { text: 'You answer from the notes.' },
            capabilities: { mcpServers: [server.resource.id] },
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    const opened = mcp.sessionsOpened;
    const refused = await owner.request('POST', `/apps/${app.id}/releases`, { notes: 'missing secret' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect((refused.body as { error: { code: string; details: { issues: unknown[] } } }).error).toMatchObject({
      code: 'release-build-failed',
      details: { issues: [{ path: 'entry.mcpServers', message: 'The secret "NO_SUCH_SECRET" does not exist in this space.' }] },
    });
    expect(mcp.sessionsOpened).toBe(opened);
  });
});

describe.each(dialects)('MCP tool nodes in workflow runs on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let mcp: McpTestServer;
  let base: string;

  beforeAll(async () => {
    mcp = await new McpTestServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'MCP workflows' }), 201);
    base = `/spaces/${space.id}`;
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await mcp.close();
  });

  it('publishes a workflow whose MCP tool node is bound through bindings.mcpServers and runs it over HTTP against the real server', async () => {
    const server = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Team notes',
        content: { transport: 'streamable-http', url: mcp.url },
      }),
      201,
    );
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'workflow', name: 'Notes flow' }),
      201,
    );
    const definition = {
      formatVersion: 1,
      kind: 'workflow',
      name: 'notes-flow',
      state: {
        question: { reducer: 'last-value', schema: { type: 'string' } },
        notes: { reducer: 'last-value', schema: { type: 'string' } },
      },
      nodes: [
        {
          name: 'query',
          kind: 'capability',
          server: 'notes',
          tool: 'search_notes',
          input: { query: 'question' },
          output: 'notes',
        },
      ],
      edges: [
        { from: 'START', to: 'query' },
        { from: 'query', to: 'END' },
      ],
      output: ['notes'],
    };
    const save = async (bindings: unknown) => {
      const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
      await ok(
        owner.request(
          'PUT',
          `/apps/${app.id}/draft`,
          { config: { definition, bindings } },
          { 'if-match': `"${draft.revision}"` },
        ),
        200,
      );
    };
    // A node whose server has no binding is refused at its path.
    await save({ mcpServers: {} });
    const unbound = await owner.request('POST', `/apps/${app.id}/releases`, { notes: 'unbound' });
    expect(unbound.status).toBe(422);
    expect((unbound.body as { error: { details: { issues: { path: string; code: string }[] } } }).error.details.issues).toEqual([
      expect.objectContaining({ path: 'definition.nodes.0.server', code: 'unbound' }),
    ]);

    await save({ mcpServers: { notes: { resourceId: server.resource.id } } });
    const opened = mcp.sessionsOpened;
    const published = await ok<{ release: { id: string } }>(
      owner.request('POST', `/apps/${app.id}/releases`, { notes: 'MCP node' }),
      201,
    );
    expect(mcp.sessionsOpened).toBe(opened);
    const references = await ok<{ references: { releaseId: string | null }[] }>(
      owner.request('GET', `${base}/resources/${server.resource.id}/references`),
      200,
    );
    expect(references.references.map((reference) => reference.releaseId)).toContain(published.release.id);

    const accepted = await ok<{ runId: string }>(
      owner.request('POST', `/apps/${app.id}/runs`, { input: { question: `launch ${dialect}` } }),
      202,
    );
    const run = await waitForTerminal(owner, accepted.runId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.output).toEqual({ notes: `notes about launch ${dialect}: ship on Friday` });
    expect(mcp.calls).toContainEqual({ tool: 'search_notes', arguments: { query: `launch ${dialect}` } });
    expect(mcp.sessionsOpened).toBe(opened + 1);
    await waitUntil(() => mcp.sessions.size === 0);
  });
});
