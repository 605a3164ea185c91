import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { type RunBody, waitForTerminal } from './run-helpers.js';
import { listen } from './scripted-servers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/**
 * Issue 36 (known gaps): a run whose MCP server cannot be reached is retried by the worker, but
 * only `mcpConnectAttempts` times; at the last claim the run ends `failed` with the typed code
 * `mcp-unreachable`, before any model call, instead of being handed back for ever.
 */
describe.each(dialects)('an unreachable MCP server on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ToolCallingModelServer;
  let base: string;
  let connectionId: string;

  beforeAll(async () => {
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform(dialect, { mcpConnectAttempts: 3 });
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'MCP gone' }), 201);
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
    await model.close();
  });

  it('ends the run failed, mcp-unreachable, after the configured attempts and without a model call', async () => {
    // A port taken and released again: nothing listens there.
    const closed = createServer();
    const url = `${await listen(closed)}/mcp`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const server = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Gone',
        content: { transport: 'streamable-http', url },
      }),
      201,
    );
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Gone agent' }),
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
    await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'gone' }), 201);
    const requestsBefore = model.offered.length;
    const started = await ok<{ runId: string }>(owner.request('POST', `/apps/${app.id}/runs`, { input: 'hello' }), 202);
    const run: RunBody = await waitForTerminal(owner, started.runId);
    expect(run.status, JSON.stringify(run)).toBe('failed');
    const events = await owner.request('GET', `/runs/${started.runId}/events?after=0`);
    expect(String(events.body)).toContain('mcp-unreachable');
    expect(String(events.body)).toContain('MCP server \\"Gone\\" could not be reached');
    expect(model.offered.length).toBe(requestsBefore);
    // Claimed exactly the configured number of times: two hand-backs, then the typed end.
    const failures = platform.logLines.filter(
      (line) => line.includes(started.runId) && line.includes('run failed to execute'),
    ).length;
    expect(failures).toBe(2);
  });
});
