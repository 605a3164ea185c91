/**
 * A published workflow app over A2A (issue 32): the seeds' example workflow, imported and
 * published over HTTP (as in `workflow-apps.test.ts`), takes a data part with its state fields as
 * a task's input and answers its output fields as a data artifact; text alone is refused (-32602).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineModel } from '../../../examples/workflow/src/offline-model.js';
import { createReportTools } from '../../../examples/workflow/src/report-workflow.js';
import type { RunWorker } from '../src/worker/index.js';
import { LanguageModelServer, ToolServer } from './example-servers.js';
import { createTestPlatform, seedUser, TestClient, type TestPlatform } from './harness.js';
import { McpTestServer } from './mcp-test-server.js';
import { createExampleSpace, exampleDocumentsDirectory, expectStatus, importExampleWorkflow } from './workflow-fixture.js';

describe('a workflow app over A2A (SQLite)', () => {
  const outputDirectory = mkdtempSync(join(tmpdir(), 'agentloom-a2a-workflow-'));
  const reportTools = Object.values(createReportTools({ documentsDirectory: exampleDocumentsDirectory, outputDirectory }));
  let platform: TestPlatform;
  let model: LanguageModelServer;
  let tools: ToolServer;
  let documents: McpTestServer;
  let worker: RunWorker;
  let workflowAppId = '';
  let appKey = '';

  beforeAll(async () => {
    model = await new LanguageModelServer(offlineModel()).start();
    tools = await new ToolServer(reportTools).start();
    documents = await new McpTestServer(
      undefined,
      reportTools.filter((item) => item.name === 'search_documents'),
    ).start();
    platform = await createTestPlatform('sqlite');
    await seedUser(platform, 'owner@example.com');
    const owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const space = await createExampleSpace(owner, model.url, 'A2A workflows');
    const imported = await importExampleWorkflow(owner, space.spaceId, space.connectionId, reportTools, tools.url, {
      mcpQueryUrl: documents.url,
    });
    workflowAppId = imported.workflowAppId;
    await expectStatus(owner.request('POST', `/apps/${workflowAppId}/releases`, { notes: 'a2a' }), 201);
    await expectStatus(owner.request('PUT', `/apps/${workflowAppId}/a2a`, { enabled: true }), 200);
    appKey = (
      await expectStatus<{ secret: string }>(owner.request('POST', `/apps/${workflowAppId}/api-keys`, { name: 'a2a' }), 201)
    ).secret;
    worker = platform.startWorker();
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await platform?.destroy();
    await model?.close();
    await tools?.close();
    await documents?.close();
    rmSync(outputDirectory, { recursive: true, force: true });
  });

  const send = async (parts: unknown[]) => {
    const response = await platform.app.request(`/a2a/apps/${workflowAppId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${appKey}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts } },
      }),
    });
    return (await response.json()) as {
      result?: { task: { status: { state: string }; artifacts?: { parts: { data?: Record<string, unknown> }[] }[] } };
      error?: { code: number };
    };
  };

  it('describes the workflow on its card: JSON in and out', async () => {
    const card = (await (await platform.app.request(`/a2a/apps/${workflowAppId}/.well-known/agent-card.json`)).json()) as {
      defaultInputModes: string[];
      skills: { tags: string[] }[];
    };
    expect(card.defaultInputModes).toEqual(['application/json']);
    expect(card.skills[0]?.tags).toContain('workflow');
  });

  it('runs it from a data part and answers its output fields as a data artifact', { timeout: 120_000 }, async () => {
    expect((await send([{ text: 'heat pump' }])).error?.code).toBe(-32602);
    const answer = await send([{ data: { question: 'heat pump' } }]);
    expect(answer.result?.task.status.state, JSON.stringify(answer)).toBe('TASK_STATE_COMPLETED');
    const output = answer.result?.task.artifacts?.[0]?.parts[0]?.data;
    expect(Object.keys(output ?? {})).toEqual(expect.arrayContaining(['report']));
  });
});
