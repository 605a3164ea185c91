import { existsSync } from 'node:fs';
import { RunNotFoundError } from '@agentloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppRun } from '../src/application/runs/create-run.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { type RunBody, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

interface DeletionBody {
  deletion: { id: string; step: string; done: boolean; runsTotal: number; runsDeleted: number } | null;
}

const errorCode = (response: { body: unknown }) => (response.body as { error?: { code?: string } }).error?.code;

describe.each(dialects)('deleting an app on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect, { runLeaseMs: 1_500 });
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await model.close();
    await tool.close();
  });

  it('during a running run: refuses new work at once (409), stops the run for good, deletes runs, sessions, files and rows, keeps shared resources', async () => {
    const fixture = await buildScriptedApp(owner, model.url, tool.url, `Doomed ${dialect}`);
    const { appId, spaceId, connectionId, toolId } = fixture;
    const fileRoot = (
      await platform.services.database.selectFrom('apps').select('file_root').where('id', '=', appId).executeTakeFirstOrThrow()
    ).file_root;
    expect(existsSync(fileRoot)).toBe(true);
    // A finished run in one session, and a run held mid-answer in another.
    const finished = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi first', mode: 'blocking' });
    expect((finished.body as { run: RunBody }).run.status).toBe('succeeded');
    model.answerDelayMs = 60_000;
    const input = `please lookup before deletion ${dialect}`;
    const { runId, sessionId } = (await owner.request('POST', `/apps/${appId}/runs`, { input })).body as RunBody & {
      runId: string;
    };
    await waitUntil(() => model.answering.has(input));

    const deleted = await owner.request('DELETE', `/apps/${appId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(202);
    const deletionId = (deleted.body as DeletionBody).deletion?.id;
    // Refused at once, before the run has even settled.
    const refusals = [
      await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi again' }),
      await owner.request('POST', `/sessions/${sessionId}/messages`, { text: 'are you there?' }),
      await owner.request('POST', `/runs/${runId}/supplements`, { text: 'one more thing' }),
      await owner.request('POST', `/apps/${appId}/releases`, { notes: 'too late' }),
    ];
    expect(refusals.map((response) => [response.status, errorCode(response)])).toEqual(Array(4).fill([409, 'app-deleting']));
    // Asking again is the same job.
    expect(((await owner.request('DELETE', `/apps/${appId}`)).body as DeletionBody).deletion?.id).toBe(deletionId);
    const during = (await owner.request('GET', `/apps/${appId}/deletion`)).body as DeletionBody;
    expect(during.deletion?.step).toBe('stopping-runs');

    // The model call in flight settles (S-5); the run then ends stopped and the job goes on.
    model.answerDelayMs = 0;
    await waitUntil(async () => {
      const { deletion } = (await owner.request('GET', `/apps/${appId}/deletion`)).body as DeletionBody;
      return deletion?.done === true;
    });
    const done = ((await owner.request('GET', `/apps/${appId}/deletion`)).body as DeletionBody).deletion;
    expect(done).toMatchObject({ id: deletionId, step: 'done', runsTotal: 2, runsDeleted: 2 });
    // The worker saw the run end stopped (its record is deleted now, so its log says it).
    const ended = platform.logLines.filter((line) => line.includes(runId) && line.includes('"msg":"run ended"'));
    expect(ended.map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(['stopped']);

    // The run ended stopped (it was not redone: one tool call), then was deleted: a tombstone
    // that no one can take over.
    expect(tool.calls.get(input)).toBe(1);
    const { runStore, runClient, database } = platform.services;
    expect((await runStore.getRun(runId))?.status).toBe('deleted');
    await expect(runClient.describeRun(runId)).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(
      runStore.acquire({ runId, sessionId, ownerId: 'late-taker', leaseMs: 1_000, deadlineAt: 0, initialEntries: [] }),
    ).rejects.toBeInstanceOf(RunNotFoundError);
    expect((await runClient.listRuns({ metadata: { appId } })).items).toEqual([]);

    // The app, its rows and files are gone; shared resources remain, unlinked.
    expect((await owner.request('GET', `/apps/${appId}`)).status).toBe(404);
    const afterwards = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi again' });
    expect([afterwards.status, errorCode(afterwards)]).toEqual([404, 'not-found']);
    expect((await owner.request('GET', `/runs/${runId}`)).status).toBe(404);
    expect((await owner.request('GET', `/sessions/${sessionId}/history`)).status).toBe(404);
    expect(existsSync(fileRoot)).toBe(false);
    for (const table of ['runs', 'sessions', 'app_resource_refs', 'app_releases', 'app_drafts'] as const) {
      const rows = await database.selectFrom(table).select('app_id').where('app_id', '=', appId).execute();
      expect(rows, table).toEqual([]);
    }
    expect((await owner.request('GET', `/spaces/${spaceId}/model-connections/${connectionId}`)).status).toBe(200);
    expect((await owner.request('GET', `/spaces/${spaceId}/resources/${toolId}`)).status).toBe(200);
    // No worker brings the run back: after another lease period it is still a tombstone.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await runStore.getRun(runId))?.status).toBe('deleted');
    expect(await database.selectFrom('run_jobs').select('run_id').where('run_id', '=', runId).execute()).toEqual([]);
  });

  it('refuses a run whose app a deletion marked after the request read it (NOT-21): nothing of it is written', async () => {
    const { appId } = await buildScriptedApp(owner, model.url, tool.url, `Raced ${dialect}`);
    const { database } = platform.services;
    const session = await existingSession(appId);
    // The request read the app while it was active; the deletion marks it before the run's transaction.
    const app = await database.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirstOrThrow();
    await database.updateTable('apps').set({ state: 'deleting' }).where('id', '=', appId).execute();
    for (const sessionId of [undefined, session]) {
      const refused = await startAppRun(
        platform.services,
        app,
        app.created_by,
        { input: 'too late', sessionId },
        undefined,
      ).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'app-deleting' });
    }
    const sessions = await database.selectFrom('sessions').select('id').where('app_id', '=', appId).execute();
    expect(sessions).toHaveLength(1);
    expect(await database.selectFrom('runs').select('id').where('app_id', '=', appId).execute()).toHaveLength(1);
    await database.updateTable('apps').set({ state: 'active' }).where('id', '=', appId).execute();
  });

  /** A session of the app with one finished run. */
  async function existingSession(appId: string): Promise<string> {
    const finished = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi first', mode: 'blocking' });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    return (finished.body as { run: RunBody & { sessionId: string } }).run.sessionId;
  }
});
