/**
 * Workflow apps through the platform (AC-7): the seeds' example (P-7.5) imported as JSON over
 * HTTP, its agents published as agent apps, the workflow published and run over HTTP with the
 * example's own offline model (served as a real OpenAI-compatible server) and its own tools: the
 * query behind a real MCP server (P-7.5 "MCP query"), the others as custom HTTP tools; its output
 * equals what `examples/workflow` produces in process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineModel } from '../../../examples/workflow/src/offline-model.js';
import { createReportTools } from '../../../examples/workflow/src/report-workflow.js';
import type { RunWorker } from '../src/worker/index.js';
import { type ExampleOutcome, runExampleInProcess, stepsOf } from './example-outcome.js';
import { LanguageModelServer, ToolServer } from './example-servers.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { McpTestServer } from './mcp-test-server.js';
import { parseSse, waitForTerminal } from './run-helpers.js';
import { createExampleSpace, exampleDocumentsDirectory, expectStatus, importExampleWorkflow } from './workflow-fixture.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});
const temporaryDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-workflow-app-'));
  directories.push(directory);
  return directory;
};

describe.each(dialects)('workflow apps on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: LanguageModelServer;
  let tools: ToolServer;
  let documents: McpTestServer;
  let space: { spaceId: string; connectionId: string };
  let imported: Awaited<ReturnType<typeof importExampleWorkflow>>;
  let expected: ExampleOutcome;
  let worker: RunWorker;
  const outputDirectory = temporaryDirectory();
  const reportTools = Object.values(createReportTools({ documentsDirectory: exampleDocumentsDirectory, outputDirectory }));

  beforeAll(async () => {
    expected = await runExampleInProcess(temporaryDirectory());
    model = await new LanguageModelServer(offlineModel()).start();
    tools = await new ToolServer(reportTools).start();
    documents = await new McpTestServer(
      undefined,
      reportTools.filter((item) => item.name === 'search_documents'),
    ).start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    space = await createExampleSpace(owner, model.url, 'Workflows');
    imported = await importExampleWorkflow(owner, space.spaceId, space.connectionId, reportTools, tools.url, {
      mcpQueryUrl: documents.url,
    });
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await platform?.destroy();
    await model?.close();
    await tools?.close();
    await documents?.close();
  });

  it('publishes the imported example: an immutable release that pins the agent releases it calls', async () => {
    const validation = await expectStatus<{ valid: boolean; issues: unknown[] }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/draft/validate`),
      200,
    );
    expect(validation).toEqual({ valid: true, issues: [] });
    const { release, stoppedRuns } = await expectStatus<{
      release: { version: number; snapshot: { kind: string; agents: Record<string, { appId: string; version: number }> } };
      stoppedRuns: string[];
    }>(owner.request('POST', `/apps/${imported.workflowAppId}/releases`, { notes: 'first' }), 201);
    expect(release.version).toBe(1);
    expect(stoppedRuns).toEqual([]);
    expect(release.snapshot.kind).toBe('workflow');
    expect(Object.keys(release.snapshot.agents).sort()).toEqual(['report-writer', 'risk-analyst', 'summarizer']);
    for (const [name, pin] of Object.entries(release.snapshot.agents)) {
      expect(pin.appId).toBe(imported.agentApps[name]);
      expect(pin.version).toBe(1);
    }
  });

  it('runs it over HTTP: the output equals what examples/workflow produces, with one run row (NOT-24)', async () => {
    const accepted = await expectStatus<{ runId: string; links: { events: string } }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/runs`, { input: { question: 'heat pump' } }),
      202,
    );
    const events = await owner.request('GET', `/runs/${accepted.runId}/events`);
    expect(events.status).toBe(200);
    const parsed = parseSse(events.body as string).events;
    expect(parsed.at(-1)?.event).toBe('workflow-finish');
    const finished = parsed.flatMap((event) =>
      event.event === 'task-finish' ? [event.data as { step: number; node: string; status: string }] : [],
    );
    expect(
      finished.filter((task) => task.status !== 'succeeded'),
      JSON.stringify(parsed.slice(-3)),
    ).toEqual([]);
    const agentInvokes = parsed
      .filter((event) => event.event === 'agent-invoke')
      .map((event) => (event.data as { node: string }).node);
    expect(agentInvokes.sort()).toEqual(['find-risks', 'summarize', 'write-report']);

    const run = await waitForTerminal(owner, accepted.runId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const output = run.output as unknown as { report: string; savedTo: string };
    const { view } = await expectStatus<{
      view: { loops: number; workflow: { tasks: { taskId: string; status: string; agentRunId?: string }[] } };
    }>(owner.request('GET', `/runs/${accepted.runId}/view`), 200);
    expect(view.workflow.tasks.map((task) => `${task.taskId} ${task.status} ${task.agentRunId ? 'agent' : 'tool'}`)).toEqual([
      '0/query succeeded tool',
      '1/find-risks succeeded agent',
      '1/summarize succeeded agent',
      '2/write-report succeeded agent',
      '3/save succeeded tool',
    ]);
    const inner = await expectStatus<{ view: { kind: string; status: string; agent: { mode: string } } }>(
      owner.request('GET', `/runs/${accepted.runId}/agent-view?taskId=${encodeURIComponent('2/write-report')}`),
      200,
    );
    expect(inner.view).toMatchObject({ kind: 'agent', status: 'succeeded', agent: { mode: 'plan-executor' } });
    const unnamed = await owner.request('GET', `/runs/${accepted.runId}/agent-view`);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toMatchObject({ error: { code: 'task-id-required' } });
    const missing = await owner.request('GET', `/runs/${accepted.runId}/agent-view?taskId=0%2Fquery`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'task-not-found' } });
    expect({
      status: run.status,
      report: output.report,
      savedAs: basename(output.savedTo),
      saved: readFileSync(output.savedTo, 'utf8'),
      steps: stepsOf(finished),
      loops: view.loops,
    }).toEqual(expected);
    expect(expected.steps).toBe('query > find-risks+summarize > write-report > save');
    // The query went to the MCP server, once, with the question; the HTTP copy of the tool was never called.
    expect(documents.calls).toEqual([{ tool: 'search_documents', arguments: { query: 'heat pump' } }]);
    expect([...tools.calls.keys()].filter((key) => key.startsWith('search_documents'))).toEqual([]);

    const rows = await platform.services.database
      .selectFrom('runs')
      .select('id')
      .where('app_id', '=', imported.workflowAppId)
      .execute();
    expect(rows.map((row) => row.id)).toEqual([accepted.runId]);
    const agentRows = await platform.services.database
      .selectFrom('runs')
      .select('id')
      .where('app_id', 'in', Object.values(imported.agentApps))
      .execute();
    expect(agentRows).toEqual([]);
  });
});
