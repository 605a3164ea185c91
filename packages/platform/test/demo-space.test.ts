import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoQuestions } from '../src/application/seed/demo-content.js';
import { prepareFirstStart } from '../src/application/seed/first-start.js';
import { demoAppNames } from '../src/application/seed/seed-demo-space.js';
import { createTestPlatform, seedUser, TestClient, type TestPlatform } from './harness.js';
import { skipDemoThinking } from './run-helpers.js';

/**
 * The seeded Demo space (issue 35) on a real SQLite file, served on a real port (the demo HTTP
 * tool calls the platform's own demo endpoint through the egress module) with a real worker:
 * each demo app runs and shows its defining behaviour, the seed is idempotent, and the crash
 * route refuses what it must (403 non-admin, 404 unknown run, 409 outside the Demo space or
 * without a worker process of its own).
 */
describe('the Demo space', () => {
  let platform: TestPlatform;
  let admin: TestClient;
  let member: TestClient;
  let server: ReturnType<typeof serve>;
  const apps = new Map<string, string>();
  let spaceId = '';

  beforeAll(async () => {
    // No allow-list entry: the demo endpoint must be reachable with the default egress policy.
    platform = await createTestPlatform('sqlite', { seedDemo: true, outbound: { allow: [], allowPrivate: false } });
    await seedUser(platform, 'admin@example.com', { admin: true });
    await seedUser(platform, 'member@example.com');
    const first = await prepareFirstStart(platform.services, { createAdmin: false, seedDemo: true });
    expect(first.demo?.apps).toBe(7);
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    platform.services.outbound.policy.listeningOn('127.0.0.1', port);
    platform.startWorker({ idlePollMs: 20 });
    admin = await new TestClient(platform).login('admin@example.com', 'correct horse battery staple');
    member = await new TestClient(platform).login('member@example.com', 'correct horse battery staple');
    const spaces = (await admin.request('GET', '/spaces')).body as { spaces: { id: string; name: string }[] };
    spaceId = spaces.spaces.find((space) => space.name === 'Demo')?.id ?? '';
    const listedAnswer = await admin.request('GET', `/spaces/${spaceId}/apps`);
    expect(listedAnswer.status, JSON.stringify(listedAnswer.body) + JSON.stringify(spaces)).toBe(200);
    const listed = listedAnswer.body as {
      apps: { id: string; name: string; latestReleaseId: string | null }[];
    };
    for (const app of listed.apps) {
      expect(app.latestReleaseId, app.name).not.toBeNull();
      apps.set(app.name, app.id);
    }
    await admin.request('POST', `/spaces/${spaceId}/members`, { email: 'member@example.com', role: 'member' });
    // No run here is caught mid-run (the browser suite presses "Crash the worker"): answers at once.
    await skipDemoThinking(admin, spaceId, [...apps.values()]);
  }, 120_000);

  afterAll(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
    await platform?.destroy();
  });

  async function finished(runId: string) {
    for (;;) {
      const { body } = await admin.request('GET', `/runs/${runId}`);
      const run = (body as { run: { status: string; output: unknown } }).run;
      if (!['queued', 'running', 'waiting-input'].includes(run.status)) return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function start(appName: string, input: unknown): Promise<string> {
    const { status, body } = await admin.request('POST', `/apps/${apps.get(appName)}/runs`, { input });
    expect(status, JSON.stringify(body)).toBe(202);
    return (body as { runId: string }).runId;
  }

  it('is seeded once: a second start adds nothing', async () => {
    expect([...apps.keys()].sort()).toEqual(Object.values(demoAppNames).sort());
    const again = await prepareFirstStart(platform.services, { createAdmin: false, seedDemo: true });
    expect(again.demo).toBeUndefined();
    const count = await platform.services.database.selectFrom('apps').select('id').execute();
    expect(count).toHaveLength(7);
  });

  it('the ReAct assistant calls a file tool and the platform demo endpoint, and answers from them, labelled', async () => {
    const runId = await start(demoAppNames.assistant, demoQuestions.assistant);
    const run = await finished(runId);
    expect(run.status).toBe('succeeded');
    expect(String(run.output)).toMatch(/^\[Scripted demo\] /);
    expect(String(run.output)).toContain('journaled');
    const events = await platform.services.runClient.readEvents(runId);
    const tools = events.flatMap((event) => (event.type === 'tool-call-finish' ? [event.toolName] : []));
    expect(tools).toEqual(['write_file', 'demo_lookup']);
  }, 60_000);

  it('the Plan–Executor planner runs its two executor roles in one parallel batch, joined', async () => {
    const runId = await start(demoAppNames.planner, demoQuestions.planner);
    const run = await finished(runId);
    expect(run.status).toBe('succeeded');
    const events = await platform.services.runClient.readEvents(runId);
    const starts = events.flatMap((event, index) =>
      event.type === 'task-start' && 'role' in event ? [{ index, role: event.role }] : [],
    );
    const firstFinish = events.findIndex((event) => event.type === 'task-finish');
    expect(starts.map((item) => item.role).sort()).toEqual(['critic', 'researcher']);
    expect(starts.every((item) => item.index < firstFinish)).toBe(true);
    expect(events.some((event) => event.type === 'batch-join')).toBe(true);
    expect(String(run.output)).toContain('Researcher:');
    expect(String(run.output)).toContain('Critic:');
  }, 60_000);

  it('the workflow runs its tool node and both agents, then waits for a person, then finishes', async () => {
    const runId = await start(demoAppNames.workflow, { topic: demoQuestions.workflow });
    for (;;) {
      const { body } = await admin.request('GET', `/runs/${runId}`);
      const status = (body as { run: { status: string } }).run.status;
      if (status === 'waiting-input') break;
      expect(['queued', 'running']).toContain(status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answered = await admin.request('POST', `/runs/${runId}/input`, { answer: 'yes' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const run = await finished(runId);
    expect(run.status).toBe('succeeded');
    const output = run.output as { facts: unknown; notes: string; brief: string; decision: string };
    expect(output.decision).toBe('yes');
    // The tool node's answer: the demo endpoint's facts.
    expect(JSON.stringify(output.facts)).toContain('journaled');
    expect(output.notes).toMatch(/^\[Scripted demo\]/);
    expect(output.brief).toContain('Critic:');
  }, 90_000);

  it('the team workflow lets its members take turns', async () => {
    const runId = await start(demoAppNames.team, { task: demoQuestions.team });
    const run = await finished(runId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(JSON.stringify(run.output)).toMatch(/Writer:|Reviewer:/);
  }, 60_000);

  it('the router routes the suggested request to the planner', async () => {
    const { status, body } = await admin.request('POST', `/routers/${apps.get(demoAppNames.router)}/messages`, {
      text: demoQuestions.router,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(JSON.stringify(body)).toContain(apps.get(demoAppNames.planner));
  });

  it('"Crash the worker" refuses: 403 for a non-admin, 404 for an unknown run, 409 outside the Demo space and without a worker process', async () => {
    const runId = await start(demoAppNames.planner, demoQuestions.planner);
    await finished(runId);
    const forbidden = await member.request('POST', `/runs/${runId}/crash-worker`);
    expect(forbidden.status).toBe(403);
    expect((forbidden.body as { error: { code: string } }).error.code).toBe('forbidden');
    expect((await admin.request('POST', '/runs/run_unknown/crash-worker')).status).toBe(404);
    const unavailable = await admin.request('POST', `/runs/${runId}/crash-worker`);
    expect(unavailable.status).toBe(409);
    expect((unavailable.body as { error: { code: string } }).error.code).toBe('crash-unavailable');

    // The same app in a space of its own is not a demo run.
    await platform.services.database.updateTable('spaces').set({ demo: 0 }).where('id', '=', spaceId).execute();
    try {
      const refused = await admin.request('POST', `/runs/${runId}/crash-worker`);
      expect(refused.status).toBe(409);
      expect((refused.body as { error: { code: string } }).error.code).toBe('not-a-demo-run');
    } finally {
      await platform.services.database.updateTable('spaces').set({ demo: 1 }).where('id', '=', spaceId).execute();
    }
  }, 60_000);

  it('the demo endpoint is public and the egress policy reaches nothing else of the platform', async () => {
    const anonymous = await platform.app.request('/api/v1/demo/lookup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'durable runs' }),
    });
    expect(anonymous.status).toBe(200);
    const outbound = platform.services.outbound;
    await expect(outbound.fetch('http://demo.agentloom.localhost/api/v1/spaces')).rejects.toMatchObject({
      code: 'egress-denied',
    });
    const port = outbound.policy.demoTarget()?.port;
    await expect(
      outbound.fetch(`http://127.0.0.1:${port}/api/v1/demo/lookup`, { method: 'POST', body: '{"topic":"x"}' }),
    ).rejects.toMatchObject({ code: 'egress-denied' });
    const reached = await outbound.fetch('http://demo.agentloom.localhost/api/v1/demo/lookup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'durable runs' }),
    });
    expect(reached.status).toBe(200);
  });
});
