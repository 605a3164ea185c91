import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunNotFoundError, type RunStore } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, postgresUrl } from './harness.js';
import { httpClient, type PlatformProcess, runCommand, startProcess } from './process-harness.js';
import { type RunBody, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

interface DeletionBody {
  deletion: { id: string; step: string; done: boolean; attempts: number; runsDeleted: number } | null;
}

const password = 'correct horse battery staple';

describe.each(dialects)('an app deletion whose process is SIGKILLed mid-way, on %s', (dialect) => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-delete-crash-'));
  const schema = `deletion_crash_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  const processes: PlatformProcess[] = [];
  const environment = {
    AGENTLOOM_DATA_DIR: dataDirectory,
    AGENTLOOM_DATABASE_URL: dialect === 'postgres' ? url.toString() : '',
    AGENTLOOM_SECRET_KEY: dialect === 'postgres' ? 'deletion-crash-secret-key-that-is-long-enough-01' : '',
    // A stop is honoured within a third of the lease (S-5): a 6 s lease leaves the run in
    // `stopping` for up to 2 s, the window in which the deletion's process is killed.
    AGENTLOOM_RUN_LEASE_MS: '6000',
    AGENTLOOM_SEED_DEMO: 'false',
    INIT_CWD: dataDirectory,
  };
  /** The SDK store the platform processes share: the truth about the deleted run. */
  const openStore = (): RunStore =>
    dialect === 'postgres'
      ? new PostgresRunStore({ connectionString: postgresUrl, schema: `${schema}_runs` })
      : new SqliteRunStore({ path: path.join(dataDirectory, 'runs.sqlite') });
  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
  });
  afterAll(async () => {
    for (const item of processes) await item.kill('SIGTERM');
    await model.close();
    await tool.close();
    rmSync(dataDirectory, { recursive: true, force: true });
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.query(`drop schema if exists "${schema}_runs" cascade`);
      await client.end();
    }
  });

  it('is finished by another process; the run ends stopped without redoing anything and, once deleted, can never be taken over', {
    timeout: 120_000,
  }, async () => {
    let admin = ['', 'ops@example.com', password];
    if (dialect === 'postgres') {
      const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
      expect(created.status, created.output).toBe(0);
    }
    const first = startProcess('serve', environment, ['--port', '0']);
    processes.push(first);
    if (dialect === 'sqlite')
      admin = [...((await first.waitFor(/instance administrator (\S+) with password (\S+)/)) as RegExpExecArray)];
    const firstUrl = (await first.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    // A second server on the same data directory starts meanwhile (starting is the slow part);
    // whichever of the two executes the run also gets the deletion and is killed.
    const second = startProcess('serve', environment, ['--port', '0']);
    processes.push(second);
    const client = await httpClient(firstUrl).login(admin[1] as string, admin[2] as string);
    let secondUrl = '';
    // The kill must land while the deletion waits in its first step, a window of up to a third
    // of the lease; a trial whose window passed before it was seen (a busy machine) proves
    // nothing and is repeated on a new app.
    const trial = async (attempt: number) => {
      const app = await buildScriptedApp(client, model.url, tool.url, `Runs ${attempt}`);
      model.answerDelayMs = 600_000;
      const input = `please lookup during the deletion ${attempt}`;
      const { runId, sessionId } = (await client.request('POST', `/apps/${app.appId}/runs`, { input })).body as RunBody & {
        runId: string;
      };
      await waitUntil(() => model.answering.has(input));
      secondUrl ||= (await second.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
      await waitUntil(() => [first, second].some((item) => item.output().includes(`run ${runId} owner`)));
      const [victim, survivor] = first.output().includes(`run ${runId} owner`) ? [first, second] : [second, first];
      const [victimUrl, survivorUrl] = victim === first ? [firstUrl, secondUrl] : [secondUrl, firstUrl];
      const doomed = await httpClient(victimUrl).login(admin[1] as string, admin[2] as string);
      expect((await doomed.request('DELETE', `/apps/${app.appId}`)).status).toBe(202);
      // The deletion is under way in the victim: the run is asked to stop and the job waits in its
      // first step until the run settles.
      let seen = false;
      await waitUntil(async () => {
        const response = await doomed.request('GET', `/runs/${runId}`);
        if (response.status === 404) return true;
        const run = (response.body as { run: RunBody }).run;
        seen = run.status === 'stopping' && run.stopCause === 'app-deleted';
        return seen || run.status === 'stopped';
      });
      const midway = ((await doomed.request('GET', `/apps/${app.appId}/deletion`)).body as DeletionBody).deletion;
      const caught = seen && midway?.step === 'stopping-runs' && !midway.done;
      return { ...app, input, runId, sessionId, victim, survivor, survivorUrl, midway, caught };
    };
    let attempt = 1;
    let found = await trial(attempt);
    while (!found.caught && attempt < 6) {
      await waitUntil(async () => (await client.request('GET', `/apps/${found.appId}`)).status === 404);
      found = await trial(++attempt);
    }
    expect(found.caught, `the deletion was caught in its first step within ${attempt} trials`).toBe(true);
    const { appId, spaceId, toolId, connectionId, input, runId, sessionId, victim, survivor, survivorUrl, midway } = found;
    expect(midway).toMatchObject({ step: 'stopping-runs', done: false });
    const modelCallsBefore = model.calls;

    await victim.kill('SIGKILL');
    model.answerDelayMs = 0;
    const again = await httpClient(survivorUrl).login(admin[1] as string, admin[2] as string);
    await waitUntil(async () => {
      const { deletion } = (await again.request('GET', `/apps/${appId}/deletion`)).body as DeletionBody;
      return deletion?.done === true;
    }, 100);
    const done = ((await again.request('GET', `/apps/${appId}/deletion`)).body as DeletionBody).deletion;
    expect(done).toMatchObject({ id: midway?.id, step: 'done', runsDeleted: 1 });
    expect(done?.attempts).toBeGreaterThanOrEqual(2);
    // Nothing of the run was redone after the kill: no model call, one tool call in all.
    expect(model.calls).toBe(modelCallsBefore);
    expect(tool.calls.get(input)).toBe(1);
    expect((await again.request('GET', `/apps/${appId}`)).status).toBe(404);
    expect((await again.request('GET', `/runs/${runId}`)).status).toBe(404);
    expect((await again.request('GET', `/spaces/${spaceId}/resources/${toolId}`)).status).toBe(200);
    expect((await again.request('GET', `/spaces/${spaceId}/model-connections/${connectionId}`)).status).toBe(200);

    await survivor.kill('SIGTERM');
    const store = openStore();
    try {
      expect((await store.getRun(runId))?.status).toBe('deleted');
      await expect(
        store.acquire({ runId, sessionId, ownerId: 'late-taker', leaseMs: 1_000, deadlineAt: 0, initialEntries: [] }),
      ).rejects.toBeInstanceOf(RunNotFoundError);
    } finally {
      await store.close();
    }
  });
});
