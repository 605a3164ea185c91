/**
 * Issue 36 through real processes. On SQLite, the platform process (`agentloom serve` with its
 * embedded worker) running a workflow run that waits for a person is SIGKILLed while it waits; the
 * restarted server's worker takes the run over and waits again, with the same question. On
 * PostgreSQL, an API process and two worker processes: the worker that owns the waiting run is
 * SIGKILLed, the answer is given over HTTP while nobody owns the run, and the other worker takes
 * it over and finishes it. Either way the answer is taken once (a second is 409).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialects } from './harness.js';
import { createInputWorkflowApp, waitForInput } from './input-workflow-fixture.js';
import { httpClient, type PlatformProcess, postgresProcessEnvironment, runCommand, startProcess } from './process-harness.js';
import { waitForTerminal, waitUntil } from './run-helpers.js';
import { expectStatus } from './workflow-fixture.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-input-takeover-'));
const processes: PlatformProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((item) => item.kill('SIGTERM')));
  rmSync(scratch, { recursive: true, force: true });
});

describe('a workflow run waiting for input survives a SIGKILL of its worker', () => {
  it('is taken over by the restarted worker, takes one answer over HTTP and finishes', { timeout: 180_000 }, async () => {
    const dataDirectory = path.join(scratch, 'platform');
    const environment = {
      AGENTLOOM_DATA_DIR: dataDirectory,
      AGENTLOOM_DATABASE_URL: '',
      AGENTLOOM_SECRET_KEY: '',
      AGENTLOOM_RUN_LEASE_MS: '1500',
      AGENTLOOM_SEED_DEMO: 'false',
      AGENTLOOM_LOG_LEVEL: 'warn',
      INIT_CWD: dataDirectory,
    };
    let server = startProcess('serve', environment, ['--port', '0']);
    processes.push(server);
    const admin = (await server.waitFor(/instance administrator (\S+) with password (\S+)/)) as RegExpExecArray;
    let baseUrl = (await server.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    const signIn = (url: string) => httpClient(url).login(admin[1] as string, admin[2] as string);
    let client = await signIn(baseUrl);
    const appId = await createInputWorkflowApp(client, 'Takeover');
    const { runId } = await expectStatus<{ runId: string }>(
      client.request('POST', `/apps/${appId}/runs`, { input: { request: 'the launch' } }),
      202,
    );
    const before = await waitForInput(client, runId);
    expect(before.pendingInputs[0]?.question).toBe('Publish the launch?');
    const { run: owned } = await expectStatus<{ run: { owner: { ownerId: string; live: boolean } | null } }>(
      client.request('GET', `/runs/${runId}`),
      200,
    );
    expect(owned.owner?.live).toBe(true);
    await server.kill('SIGKILL');

    server = startProcess('serve', environment, ['--port', '0']);
    processes.push(server);
    baseUrl = (await server.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    client = await signIn(baseUrl);
    // Still waiting, with the same question: the journal is the truth, not the dead process.
    const after = await waitForInput(client, runId);
    expect(after.pendingInputs).toEqual(before.pendingInputs);
    await expectStatus(client.request('POST', `/runs/${runId}/input`, { answer: 'yes' }), 200);
    const second = await client.request('POST', `/runs/${runId}/input`, { answer: 'no' });
    expect([409]).toContain(second.status);
    const run = await waitForTerminal(client, runId);
    expect(run.status).toBe('succeeded');
    expect(run.output).toEqual({ decision: 'yes' });
    // A new owner (the restarted worker) finished it.
    const { run: ended } = await expectStatus<{ run: { owner: unknown } }>(client.request('GET', `/runs/${runId}`), 200);
    expect(ended.owner).toBeNull();
  });
});

describe.skipIf(!dialects.includes('postgres'))('a waiting workflow run whose worker is SIGKILLed, on PostgreSQL', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-input-takeover-pg-'));
  const { environment, drop } = postgresProcessEnvironment('input_takeover', dataDirectory);
  afterAll(async () => {
    rmSync(dataDirectory, { recursive: true, force: true });
    await drop();
  });

  it('is answered while nobody owns it and finished by the other worker', { timeout: 180_000 }, async () => {
    const password = 'correct horse battery staple';
    const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
    expect(created.status, created.output).toBe(0);
    const api = startProcess('serve', environment, ['--port', '0']);
    processes.push(api);
    const baseUrl = (await api.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    const client = await httpClient(baseUrl).login('ops@example.com', password);
    const appId = await createInputWorkflowApp(client, 'Takeover on PostgreSQL');
    const workers = [startProcess('worker', environment), startProcess('worker', environment)];
    processes.push(...workers);
    await Promise.all(workers.map((worker) => worker.waitFor(/ready/)));

    const { runId } = await expectStatus<{ runId: string }>(
      client.request('POST', `/apps/${appId}/runs`, { input: { request: 'the budget' } }),
      202,
    );
    await waitForInput(client, runId);
    await waitUntil(() => workers.some((worker) => worker.output().includes(`run ${runId} owner`)));
    const owner = workers.find((worker) => worker.output().includes(`run ${runId} owner`)) as PlatformProcess;
    const survivor = workers.find((worker) => worker !== owner) as PlatformProcess;
    await owner.kill('SIGKILL');

    // The dead owner's lease may still be live: the answer goes to the journal all the same.
    await expectStatus(client.request('POST', `/runs/${runId}/input`, { answer: 'no' }), 200);
    const second = await client.request('POST', `/runs/${runId}/input`, { answer: 'yes' });
    expect(second.status).toBe(409);
    const run = await waitForTerminal(client, runId);
    expect(run.status).toBe('succeeded');
    expect(run.output).toEqual({ decision: 'no' });
    // The API process runs no worker and the owner is dead: the survivor finished it. (Its
    // `owner` log line may not come: it reports an owner only while the run is still running.)
    expect(owner.child.signalCode).toBe('SIGKILL');
    expect(survivor.child.exitCode).toBeNull();
  });
});
