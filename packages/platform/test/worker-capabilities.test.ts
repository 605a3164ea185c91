import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatcherKind } from '../src/config/index.js';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer, saveDraftAndPublish } from './scripted-servers.js';

/**
 * Capability-aware dispatch (NOT-18, PLATFORM.md §4.6): a worker without bubblewrap never
 * executes a run whose agent runs commands, on each engine with its default dispatcher (the lease
 * table on SQLite, pg-boss on PostgreSQL). The isolating worker really has bubblewrap here.
 */
describe.each(dialects)('worker capabilities on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let commands: Awaited<ReturnType<typeof buildScriptedApp>>;
  let plain: Awaited<ReturnType<typeof buildScriptedApp>>;
  let plainWorker: RunWorker;
  const startedWithoutIsolation: string[] = [];
  const startedWithIsolation: string[] = [];

  const start = async (appId: string, input: string) => {
    const response = await owner.request('POST', `/apps/${appId}/runs`, { input });
    expect(response.status).toBe(202);
    return (response.body as { runId: string }).runId;
  };

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    commands = await buildScriptedApp(owner, model.url, tool.url, 'Commands');
    await saveDraftAndPublish(owner, commands.appId, commands.connectionId, commands.toolId, 'You may run commands.', [
      'workspace-files',
      'run_command',
    ]);
    plain = await buildScriptedApp(owner, model.url, tool.url, 'Plain');
    plainWorker = platform.startWorker({
      capabilities: { isolation: false },
      onRunStarted: (runId) => startedWithoutIsolation.push(runId),
    });
  });
  afterAll(async () => {
    await platform.destroy();
    await model.close();
    await tool.close();
  });

  it('uses the engine default dispatcher', () => {
    expect(dispatcherKind(platform.services.config)).toBe(dialect === 'postgres' ? 'pg-boss' : 'lease-table');
  });

  it('a worker without isolation leaves a run that runs commands for a worker that can isolate', async () => {
    const needsIsolation = await start(commands.appId, 'say hi, isolated');
    // Enqueued after it, so once the plain worker has finished this one it has looked at the queue
    // with the isolated run in it, more than once.
    for (const index of [1, 2, 3]) {
      const later = await start(plain.appId, `say hi, plain ${index}`);
      expect((await waitForTerminal(owner, later)).status).toBe('succeeded');
    }
    expect((await platform.services.runClient.describeRun(needsIsolation)).status).toBe('pending');
    const isolating = platform.startWorker({
      capabilities: { isolation: true },
      onRunStarted: (runId) => startedWithIsolation.push(runId),
    });
    expect((await waitForTerminal(owner, needsIsolation)).status).toBe('succeeded');
    await waitUntil(() => startedWithIsolation.includes(needsIsolation));
    expect(startedWithoutIsolation).not.toContain(needsIsolation);
    await isolating.stop();
  });

  it('a run enqueued for a plain release that a new release gives commands goes to a worker that can isolate', async () => {
    // Paused so that the run is still queued when the new release lands.
    await plainWorker.stop();
    const queued = await start(plain.appId, 'say hi, before the new release');
    await saveDraftAndPublish(owner, plain.appId, plain.connectionId, plain.toolId, 'Now with commands.', ['run_command']);
    plainWorker.start();
    // The plain worker claims it (it was enqueued as plain), sees the new release at start and
    // hands it back, unexecuted, needing isolation.
    await waitUntil(() =>
      platform.logLines.some((line) => line.includes(queued) && line.includes('run needs isolation this worker lacks')),
    );
    expect((await platform.services.runClient.describeRun(queued)).status).toBe('pending');
    const isolating = platform.startWorker({
      capabilities: { isolation: true },
      onRunStarted: (runId) => startedWithIsolation.push(runId),
    });
    expect((await waitForTerminal(owner, queued)).status).toBe('succeeded');
    expect(startedWithIsolation).toContain(queued);
    expect(startedWithoutIsolation).not.toContain(queued);
    await isolating.stop();
    await plainWorker.stop();
  });
});
