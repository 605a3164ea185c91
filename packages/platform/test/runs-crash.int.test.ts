import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunClient } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, postgresUrl, type TestClient } from './harness.js';
import { httpClient, type PlatformProcess, readEventIds, runCommand, startProcess } from './process-harness.js';
import { type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

const leaseMs = '1500';
const password = 'correct horse battery staple';

interface Accepted {
  runId: string;
  sessionId: string;
}

/** Signs in, builds the scripted app, and makes a space key for the SSE readers. */
async function prepare(baseUrl: string, email: string, model: ScriptedModelServer, tool: CountingToolServer) {
  const client = await httpClient(baseUrl).login(email, password);
  const fixture = await buildScriptedApp(client, model.url, tool.url);
  const key = (await client.request('POST', `/spaces/${fixture.spaceId}/api-keys`, { name: 'sse' })).body as { secret: string };
  return { client, fixture, headers: { authorization: `Bearer ${key.secret}` } };
}

describe('a killed embedded server', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-crash-'));
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  const processes: PlatformProcess[] = [];
  const environment = {
    AGENTLOOM_DATA_DIR: dataDirectory,
    AGENTLOOM_DATABASE_URL: '',
    AGENTLOOM_SECRET_KEY: '',
    AGENTLOOM_RUN_LEASE_MS: leaseMs,
    AGENTLOOM_SEED_DEMO: 'false',
    INIT_CWD: dataDirectory,
  };
  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
  });
  afterAll(async () => {
    for (const item of processes) await item.kill('SIGTERM');
    await model.close();
    await tool.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('is restarted and the same run completes without redoing its saved tool result; SSE resumes with no gap and no duplicate', {
    timeout: 120_000,
  }, async () => {
    const first = startProcess('serve', environment, ['--port', '0']);
    processes.push(first);
    const admin = (await first.waitFor(/instance administrator (\S+) with password (\S+)/)) as RegExpExecArray;
    const url = (await first.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    const login = await httpClient(url).login(admin[1] as string, admin[2] as string);
    const fixture = await buildScriptedApp(login, model.url, tool.url);
    const key = (await login.request('POST', `/spaces/${fixture.spaceId}/api-keys`, { name: 'sse' })).body as { secret: string };
    const headers = { authorization: `Bearer ${key.secret}` };

    model.answerDelayMs = 600_000;
    const input = 'please lookup the crash';
    const { runId } = (await login.request('POST', `/apps/${fixture.appId}/runs`, { input })).body as Accepted;
    await waitUntil(() => model.answering.has(input));
    expect(tool.calls.get(input)).toBe(1);

    const before = await readEventIds(url, headers, runId, undefined, (ids) => ids.length >= 3);
    await first.kill('SIGKILL');
    model.answerDelayMs = 0;
    const second = startProcess('serve', environment, ['--port', '0']);
    processes.push(second);
    const secondUrl = (await second.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    const after = await readEventIds(secondUrl, headers, runId, String(before.ids.at(-1)));
    expect(after.ended).toBe(true);
    const client: TestClient = await httpClient(secondUrl).login(admin[1] as string, admin[2] as string);
    const run = await waitForTerminal(client, runId);
    expect(run).toMatchObject({ id: runId, status: 'succeeded' });
    expect(tool.calls.get(input)).toBe(1);
    const all = await readEventIds(secondUrl, headers, runId, undefined);
    expect(all.types.at(-1)).toBe('run-finish');
    expect([...before.ids, ...after.ids]).toEqual(all.ids);
  });
});

describe.skipIf(!dialects.includes('postgres'))('AC-4: three worker processes on PostgreSQL', () => {
  const schema = `runs_crash_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-workers-'));
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let store: PostgresRunStore;
  const processes: PlatformProcess[] = [];
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  const environment = {
    AGENTLOOM_DATA_DIR: dataDirectory,
    AGENTLOOM_DATABASE_URL: url.toString(),
    AGENTLOOM_SECRET_KEY: 'crash-test-secret-key-that-is-long-enough-0123',
    AGENTLOOM_RUN_LEASE_MS: leaseMs,
    AGENTLOOM_EMBEDDED_WORKERS: '0',
    AGENTLOOM_SEED_DEMO: 'false',
    INIT_CWD: dataDirectory,
  };
  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
  });
  afterAll(async () => {
    for (const item of processes) await item.kill('SIGTERM');
    await store?.close();
    await model.close();
    await tool.close();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.query(`drop schema if exists "${schema}_runs" cascade`);
    await client.end();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('SIGKILLs the worker the SDK names as a run’s owner; the other workers finish its runs with the same ids, no redone tool result, SSE without gap or duplicate', {
    timeout: 120_000,
  }, async () => {
    const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
    expect(created.status, created.output).toBe(0);
    const api = startProcess('serve', environment, ['--port', '0']);
    processes.push(api);
    const baseUrl = (await api.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    // One after another: each start migrates (a no-op by then) and opens two pools.
    const workers: PlatformProcess[] = [];
    for (let index = 0; index < 3; index += 1) {
      const worker = startProcess('worker', environment);
      processes.push(worker);
      workers.push(worker);
      await worker.waitFor(/ready/);
    }
    const { client, fixture, headers } = await prepare(baseUrl, 'ops@example.com', model, tool);
    store = new PostgresRunStore({ connectionString: postgresUrl, schema: `${schema}_runs` });
    const sdk = new RunClient({ store });

    model.answerDelayMs = 600_000;
    const inputs = Array.from({ length: 6 }, (_, index) => `please lookup item ${index}`);
    const runIds: string[] = [];
    for (const input of inputs)
      runIds.push(((await client.request('POST', `/apps/${fixture.appId}/runs`, { input })).body as Accepted).runId);
    await waitUntil(() => inputs.every((input) => model.answering.has(input)));

    // Who owns the first run? The SDK says (its owner id), and the worker that printed that owner id is killed.
    const victimRun = runIds[0] as string;
    const owner = (await sdk.describeRun(victimRun)).owner;
    expect(owner?.live).toBe(true);
    const victim = workers.find((worker) => worker.output().includes(`run ${victimRun} owner ${owner?.ownerId}`));
    expect(victim).toBeDefined();
    const victimOwnerIds = new Set(
      [...(victim as PlatformProcess).output().matchAll(/owner (\S+) worker/g)].map((match) => match[1] as string),
    );
    const orphaned: string[] = [];
    for (const runId of runIds) {
      const description = await sdk.describeRun(runId);
      if (description.owner && victimOwnerIds.has(description.owner.ownerId)) orphaned.push(runId);
    }
    expect(orphaned).toContain(victimRun);

    const before = await readEventIds(baseUrl, headers, victimRun, undefined, (ids) => ids.length >= 3);
    await (victim as PlatformProcess).kill('SIGKILL');
    model.answerDelayMs = 0;
    const after = await readEventIds(baseUrl, headers, victimRun, String(before.ids.at(-1)));
    expect(after.ended).toBe(true);

    const finished: RunBody[] = [];
    for (const runId of runIds) finished.push(await waitForTerminal(client, runId));
    expect(finished.map((run) => `${run.status} ${run.reason ?? ''}`.trim())).toEqual(Array(6).fill('succeeded'));
    // Each run's one lookup reached the tool exactly once: none redone after the takeover.
    for (const [index, input] of inputs.entries()) expect(tool.calls.get(input), `${input}: ${finished[index]?.output}`).toBe(1);
    const survivors = workers.filter((worker) => worker !== victim);
    for (const runId of orphaned) expect(survivors.some((worker) => worker.output().includes(`run ${runId} owner`))).toBe(true);
    const all = await readEventIds(baseUrl, headers, victimRun, undefined);
    expect([...before.ids, ...after.ids]).toEqual(all.ids);
  });
});
