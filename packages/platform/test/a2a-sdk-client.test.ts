import type { AddressInfo } from 'node:net';
import { Agent, MemoryRunStore } from '@agentloom/sdk';
import { a2aAgent } from '@agentloom/sdk/capabilities/a2a';
import { type ModelRequest, ScriptedModel } from '@agentloom/sdk/testing';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

/**
 * A2A both ways (issue 32): the SDK's own client, `a2aAgent`, as the executor role of a
 * Plan–Executor agent, delegates to an app the platform publishes over A2A (a real listening
 * server on 127.0.0.1, SQLite): its client-minted context becomes a session of the app, the
 * task runs on a platform worker, and its output comes back as the delegation's result.
 */
describe("the SDK's a2aAgent driving a platform app over A2A", () => {
  let platform: TestPlatform;
  let server: ServerType;
  let worker: RunWorker;
  let own: SpaceFixture;
  let origin = '';

  beforeAll(async () => {
    platform = await createTestPlatform('sqlite');
    await seedUser(platform, 'owner@example.com');
    const owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    own = await buildSpace(owner, 'A2A both ways');
    expect((await owner.request('PUT', `/apps/${own.appId}/a2a`, { enabled: true })).status).toBe(200);
    server = serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await new Promise((resolve) => server?.close(resolve));
    await platform?.destroy();
  });

  it('delegates a task to the published app and reports its answer', { timeout: 60_000 }, async () => {
    const remote = a2aAgent({
      cardUrl: `${origin}/a2a/apps/${own.appId}/.well-known/agent-card.json`,
      name: 'researcher',
      description: 'Knows AgentLoom.',
      auth: { bearer: own.appKeySecret },
    });
    const toolResults = (request: ModelRequest) => request.messages.filter((message) => message.role === 'tool');
    const model = new ScriptedModel({
      respond: (request) =>
        toolResults(request).length === 0
          ? { text: 'delegating', toolCalls: [{ name: 'researcher', arguments: { task: 'what is agentloom?' } }] }
          : {
              text: `report: ${toolResults(request)
                .map((message) => message.content)
                .join(' / ')}`,
            },
    });
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model,
      store: new MemoryRunStore(),
      planner: { prompt: 'Plan and delegate.' },
      executors: [remote],
    });
    const result = await agent.run({ sessionId: 's', input: 'Go.' }).result();
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'succeeded' });
    expect(result.output).toContain('AgentLoom keeps runs alive across crashes.');
    // One task on the platform, in the context the client minted.
    const runs = await platform.services.database.selectFrom('runs').selectAll().where('app_id', '=', own.appId).execute();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.session_id).toMatch(/^agentloom-/);
  });
});
