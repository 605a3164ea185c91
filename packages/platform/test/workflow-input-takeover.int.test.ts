/**
 * Issue 36 through real processes: the platform process (`agentloom serve` with its embedded
 * worker, SQLite) running a workflow run that waits for a person is SIGKILLed while it waits. The
 * restarted server's worker takes the run over and waits again, with the same question; the answer
 * given over HTTP is taken once (a second is 409) and the run finishes with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createInputWorkflowApp, waitForInput } from './input-workflow-fixture.js';
import { httpClient, type PlatformProcess, startProcess } from './process-harness.js';
import { waitForTerminal } from './run-helpers.js';
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
