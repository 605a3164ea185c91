import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './harness.js';
import { httpClient, type PlatformProcess, postgresProcessEnvironment, runCommand, startProcess } from './process-harness.js';
import { type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

const password = 'correct horse battery staple';

/**
 * Issue 14, "stop works … for a run whose worker just died": the worker that owns a run is
 * SIGKILLed while the run waits on its model (its tool result already saved), and the stop is
 * asked at once, with no client attached. Another worker takes the run over only to honour the
 * stop: the run ends `stopped` with the saved tool result kept, no tool call redone and no model
 * call made after the kill.
 */
describe.skipIf(!dialects.includes('postgres'))('stopping a run whose worker just died, on PostgreSQL', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-stop-orphaned-'));
  const { environment, drop } = postgresProcessEnvironment('stop_orphaned', dataDirectory);
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  const processes: PlatformProcess[] = [];

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
  });
  afterAll(async () => {
    for (const item of processes) await item.kill('SIGTERM');
    await model.close();
    await tool.close();
    rmSync(dataDirectory, { recursive: true, force: true });
    await drop();
  });

  it('ends the run stopped on another worker, keeping the saved tool result, redoing nothing', { timeout: 120_000 }, async () => {
    const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
    expect(created.status, created.output).toBe(0);
    const api = startProcess('serve', environment, ['--port', '0']);
    processes.push(api);
    const workers = [startProcess('worker', environment), startProcess('worker', environment)];
    processes.push(...workers);
    const baseUrl = (await api.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    await Promise.all(workers.map((worker) => worker.waitFor(/ready/)));
    const client = await httpClient(baseUrl).login('ops@example.com', password);
    const { appId } = await buildScriptedApp(client, model.url, tool.url, 'Orphaned');

    model.answerDelayMs = 600_000;
    const input = 'please lookup and then wait';
    const started = await client.request('POST', `/apps/${appId}/runs`, { input });
    expect(started.status).toBe(202);
    const { runId } = started.body as { runId: string };
    // The tool ran and its result is saved; the model's answer is held, so the run is mid-flight.
    await waitUntil(() => model.answering.has(input));
    await waitUntil(() => workers.some((worker) => worker.output().includes(`run ${runId} owner`)));
    const owner = workers.find((worker) => worker.output().includes(`run ${runId} owner`)) as PlatformProcess;
    const modelCallsBefore = model.calls;

    await owner.kill('SIGKILL');
    const stop = await client.request('POST', `/runs/${runId}/stop`);
    expect(stop.status).toBe(202);
    model.answerDelayMs = 0;

    const run = await waitForTerminal(client, runId);
    expect(run).toMatchObject({ status: 'stopped', reason: 'user-stop', stopCause: 'user' });
    const survivor = workers.find((worker) => worker !== owner) as PlatformProcess;
    expect(survivor.output()).toContain(`run ${runId} owner`);
    expect(tool.calls.get(input)).toBe(1);
    expect(model.calls).toBe(modelCallsBefore);
    // The in-flight result is kept: the run view still holds the saved tool call.
    const view = await client.request('GET', `/runs/${runId}/view`);
    expect(JSON.stringify(view.body)).toContain('lookup');
    const history = (await client.request('GET', `/sessions/${(run as RunBody).sessionId}/history`)).body;
    expect(JSON.stringify(history)).toContain('found');
  });
});
