/**
 * R-6 through the platform: the process running the example workflow (`agentloom serve` with its
 * embedded worker, SQLite) is SIGKILLed while the two analysis agents run in parallel — one has
 * finished, the other waits for its model. The restarted server's worker takes the run over: it
 * finishes with the same run id, the finished agent node is not run again (no second model call of
 * its role), the unfinished one continues its own inner run (its tool call is not redone) and the
 * output still equals what `examples/workflow` produces in process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryRunStore } from '@agentloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineModel } from '../../../examples/workflow/src/offline-model.js';
import {
  createReportTools,
  createReportWorkflow,
  RISK_PROMPT,
  SUMMARIZER_PROMPT,
} from '../../../examples/workflow/src/report-workflow.js';
import { LanguageModelServer, ToolServer } from './example-servers.js';
import { httpClient, type PlatformProcess, startProcess } from './process-harness.js';
import { waitForTerminal, waitUntil } from './run-helpers.js';
import { createExampleSpace, exampleDocumentsDirectory, expectStatus, importExampleWorkflow } from './workflow-fixture.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-workflow-takeover-'));
const processes: PlatformProcess[] = [];
let model: LanguageModelServer;
let tools: ToolServer;
const reportTools = Object.values(createReportTools({ documentsDirectory: exampleDocumentsDirectory, outputDirectory: scratch }));

beforeAll(async () => {
  model = await new LanguageModelServer(offlineModel()).start();
  tools = await new ToolServer(reportTools).start();
});
afterAll(async () => {
  await Promise.all(processes.map((item) => item.kill('SIGTERM')));
  await model?.close();
  await tools?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a workflow run survives a SIGKILL of its worker during the parallel agents (R-6)', () => {
  it('finishes on the restarted server: finished agent node not run again, the other continues its inner run', {
    timeout: 180_000,
  }, async () => {
    const expectedRun = await createReportWorkflow({
      store: new MemoryRunStore(),
      model: offlineModel(),
      documentsDirectory: exampleDocumentsDirectory,
      outputDirectory: scratch,
    })
      .run({ sessionId: 'example', input: { question: 'heat pump' } })
      .result();
    const expectedReport = (expectedRun.output as { report: string }).report;

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
    const space = await createExampleSpace(client, model.url, 'Takeover');
    const imported = await importExampleWorkflow(client, space.spaceId, space.connectionId, reportTools, tools.url);
    await expectStatus(client.request('POST', `/apps/${imported.workflowAppId}/releases`, {}), 201);

    // Hold the risk analyst's answer (its call after its tool result) until the kill.
    let open: () => void = () => {};
    model.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    model.holdWhen = (request) => request.system === RISK_PROMPT && request.messages.some((message) => message.role === 'tool');
    const { runId } = await expectStatus<{ runId: string }>(
      client.request('POST', `/apps/${imported.workflowAppId}/runs`, { input: { question: 'heat pump' } }),
      202,
    );
    // The summarizer's node has finished durably and the risk analyst waits for its model.
    await waitUntil(async () => {
      const { body } = await client.request('GET', `/runs/${runId}/view`);
      const tasks =
        (body as { view?: { workflow?: { tasks: { taskId: string; status: string }[] } } }).view?.workflow?.tasks ?? [];
      const summarized = tasks.some((task) => task.taskId === '1/summarize' && task.status === 'succeeded');
      return summarized && (model.callsBySystem.get(RISK_PROMPT) ?? 0) >= 2;
    }, 50);
    const riskCallsBeforeKill = model.callsBySystem.get(RISK_PROMPT) ?? 0;
    await server.kill('SIGKILL');
    model.gate = undefined;
    model.holdWhen = undefined;
    open();

    server = startProcess('serve', environment, ['--port', '0']);
    processes.push(server);
    baseUrl = (await server.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    client = await signIn(baseUrl);
    const run = await waitForTerminal(client, runId);
    expect(run.status).toBe('succeeded');
    const output = run.output as unknown as { report: string; savedTo: string };
    expect(output.report).toBe(expectedReport);
    expect(readFileSync(output.savedTo, 'utf8')).toBe(`${expectedReport}\n`);

    // The finished agent node was not run again; the unfinished one re-sent only the call the kill cut.
    expect(model.callsBySystem.get(SUMMARIZER_PROMPT)).toBe(1);
    expect(model.callsBySystem.get(RISK_PROMPT)).toBe(riskCallsBeforeKill + 1);
    const toolCalls = [...tools.calls.entries()];
    expect(toolCalls.filter(([key]) => key.startsWith('find_dates ')).map(([, count]) => count)).toEqual([1]);
    expect(toolCalls.filter(([key]) => key.startsWith('search_documents ')).map(([, count]) => count)).toEqual([1]);
    const { view } = await expectStatus<{ view: { owner: unknown; workflow: { tasks: { taskId: string; status: string }[] } } }>(
      client.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(view.workflow.tasks.map((task) => `${task.taskId} ${task.status}`)).toEqual([
      '0/query succeeded',
      '1/find-risks succeeded',
      '1/summarize succeeded',
      '2/write-report succeeded',
      '3/save succeeded',
    ]);
    const rows = await client.request('GET', `/apps/${imported.workflowAppId}/runs`);
    expect((rows.body as { runs: unknown[] }).runs).toHaveLength(1);
  });
});
