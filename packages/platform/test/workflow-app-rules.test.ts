/**
 * The rules around workflow apps (AC-7, P-6.7–P-6.9, D-P1, D-P2, D-P4, NOT-8): typed refusals of
 * bad drafts and runs, an unpublished agent refusing a publish, draft edits and a new publish
 * during a run changing nothing in it, release pins, and deleting a called agent refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineModel } from '../../../examples/workflow/src/offline-model.js';
import { createReportTools } from '../../../examples/workflow/src/report-workflow.js';
import type { RunWorker } from '../src/worker/index.js';
import { LanguageModelServer, ToolServer } from './example-servers.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal, waitUntil } from './run-helpers.js';
import {
  createExampleSpace,
  exampleDocumentsDirectory,
  expectStatus,
  importExampleWorkflow,
  saveDraft,
} from './workflow-fixture.js';

interface ErrorBody {
  error: { code: string; details: Record<string, unknown> };
}

const outputDirectory = mkdtempSync(join(tmpdir(), 'agentloom-workflow-rules-'));
afterAll(() => rmSync(outputDirectory, { recursive: true, force: true }));

describe.each(dialects)('workflow app rules on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: LanguageModelServer;
  let tools: ToolServer;
  let space: { spaceId: string; connectionId: string };
  let worker: RunWorker;
  const reportTools = Object.values(createReportTools({ documentsDirectory: exampleDocumentsDirectory, outputDirectory }));
  const importExample = (publishAgents = true) =>
    importExampleWorkflow(owner, space.spaceId, space.connectionId, reportTools, tools.url, { publishAgents });

  beforeAll(async () => {
    model = await new LanguageModelServer(offlineModel()).start();
    tools = await new ToolServer(reportTools).start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    space = await createExampleSpace(owner, model.url, 'Rules');
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await platform?.destroy();
    await model?.close();
    await tools?.close();
  });

  it('refuses a malformed draft with 400 and its paths, and lists a half-built one’s issues without refusing to save it', async () => {
    const { app } = await expectStatus<{ app: { id: string } }>(
      owner.request('POST', `/spaces/${space.spaceId}/apps`, { kind: 'workflow', name: 'Half built' }),
      201,
    );
    const fresh = await expectStatus<{ draft: { config: { definition: { nodes: unknown[] } } } }>(
      owner.request('GET', `/apps/${app.id}/draft`),
      200,
    );
    expect(fresh.draft.config.definition.nodes).toEqual([]);
    const malformed = await saveDraft(owner, app.id, { definition: {}, bindings: { agents: { a: { app: 'x' } } }, extra: 1 });
    expect(malformed.status).toBe(400);
    const paths = ((malformed.body as ErrorBody).error.details.issues as { path: string }[]).map((issue) => issue.path).sort();
    expect(paths).toEqual(['config', 'config.bindings.agents.a', 'config.bindings.agents.a.appId']);

    const definition = {
      formatVersion: 1,
      kind: 'workflow',
      name: 'half-built',
      state: { question: { reducer: 'last-value', schema: { type: 'string' } } },
      nodes: [{ name: 'ask', kind: 'agent', agent: 'helper', input: 'question', output: 'answer' }],
      edges: [{ from: 'START', to: 'ask' }],
    };
    await expectStatus(saveDraft(owner, app.id, { definition, layout: { nodes: { ask: { x: 10, y: 20 } } } }), 200);
    const validation = await expectStatus<{ valid: boolean; issues: { path: string; code: string }[] }>(
      owner.request('POST', `/apps/${app.id}/draft/validate`),
      200,
    );
    expect(validation.valid).toBe(false);
    expect(validation.issues).toEqual([expect.objectContaining({ path: 'definition.nodes.0.agent', code: 'unbound' })]);
    const publish = await owner.request('POST', `/apps/${app.id}/releases`, {});
    expect(publish.status).toBe(422);
    expect((publish.body as ErrorBody).error.code).toBe('draft-invalid');
  });

  it('reports the SDK’s graph issues (WorkflowIssues) at their definition paths', async () => {
    const imported = await importExample();
    const definition = structuredClone(imported.draft.definition) as { edges: unknown[] };
    definition.edges = [...definition.edges, { from: 'save', to: 'publish-report' }];
    await expectStatus(saveDraft(owner, imported.workflowAppId, { ...imported.draft, definition }), 200);
    const validation = await expectStatus<{ valid: boolean; issues: { path: string; code: string; message: string }[] }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/draft/validate`),
      200,
    );
    expect(validation.valid).toBe(false);
    expect(validation.issues).toEqual([
      // The SDK names the node an issue concerns when it can; an edge to a missing node has none.
      {
        path: 'definition',
        code: 'invalid-definition',
        message: expect.stringContaining('[unknown-node] edge save → publish-report'),
      },
    ]);
  });

  it('refuses to publish a workflow that calls an unpublished agent, listing each, and writes nothing', async () => {
    const imported = await importExample(false);
    const refused = await owner.request('POST', `/apps/${imported.workflowAppId}/releases`, {});
    expect(refused.status).toBe(422);
    const body = refused.body as ErrorBody;
    expect(body.error.code).toBe('draft-invalid');
    expect(body.error.details.issues).toEqual(
      ['summarizer', 'risk-analyst', 'report-writer'].map((name) => ({
        path: `bindings.agents.${name}.appId`,
        code: 'unpublished',
        message: expect.any(String),
      })),
    );
    const { releases } = await expectStatus<{ releases: unknown[] }>(
      owner.request('GET', `/apps/${imported.workflowAppId}/releases`),
      200,
    );
    expect(releases).toEqual([]);
  });

  it('refuses runs that do not fit the app with typed 422s', async () => {
    const imported = await importExample();
    await expectStatus(owner.request('POST', `/apps/${imported.workflowAppId}/releases`, {}), 201);
    const cases: [string, Record<string, unknown>, string][] = [
      [imported.workflowAppId, { input: 'heat pump' }, 'invalid-input'],
      [imported.workflowAppId, { input: { question: 'heat pump' }, releaseVersion: 9 }, 'release-not-found'],
      [imported.agentApps.summarizer as string, { input: { question: 'heat pump' } }, 'invalid-input'],
      [imported.agentApps.summarizer as string, { input: 'hello', releaseVersion: 1 }, 'release-pin-not-allowed'],
    ];
    for (const [appId, body, code] of cases) {
      const response = await owner.request('POST', `/apps/${appId}/runs`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((response.body as ErrorBody).error.code).toBe(code);
    }
    const runs = await platform.services.database
      .selectFrom('runs')
      .select('id')
      .where('app_id', '=', imported.workflowAppId)
      .execute();
    expect(runs).toEqual([]);
  });

  it('editing the draft and publishing during a run change nothing in it (NOT-8, D-P2); a run may pin a release (D-P1)', async () => {
    const imported = await importExample();
    const first = await expectStatus<{ release: { id: string; version: number } }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/releases`, {}),
      201,
    );
    let open: () => void = () => {};
    model.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const callsBefore = model.calls;
    const { runId } = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/runs`, { input: { question: 'heat pump' } }),
      202,
    );
    try {
      // Both analysis agents have asked the model and wait for it: the run is in the middle of its parallel step.
      await waitUntil(() => model.calls >= callsBefore + 2);
      const edited = { ...imported.draft, definition: { ...imported.draft.definition, output: ['report'] } };
      await expectStatus(saveDraft(owner, imported.workflowAppId, edited), 200);
      const second = await expectStatus<{ release: { id: string; version: number }; stoppedRuns: string[] }>(
        owner.request('POST', `/apps/${imported.workflowAppId}/releases`, {}),
        201,
      );
      expect(second.release.version).toBe(2);
      expect(second.stoppedRuns).toEqual([]);
    } finally {
      model.gate = undefined;
      open();
    }
    const during = await waitForTerminal(owner, runId);
    expect(during.status).toBe('succeeded');
    expect(during.releaseId).toBe(first.release.id);
    expect(Object.keys(during.output as unknown as object).sort()).toEqual(['report', 'savedTo']);

    const unpinned = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/runs`, { input: { question: 'heat pump' } }),
      202,
    );
    const pinned = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/runs`, { input: { question: 'heat pump' }, releaseVersion: 1 }),
      202,
    );
    const newest = await waitForTerminal(owner, unpinned.runId);
    expect(Object.keys(newest.output as unknown as object)).toEqual(['report']);
    const old = await waitForTerminal(owner, pinned.runId);
    expect(old.releaseId).toBe(first.release.id);
    expect(Object.keys(old.output as unknown as object).sort()).toEqual(['report', 'savedTo']);
    expect(readFileSync((old.output as unknown as { savedTo: string }).savedTo, 'utf8')).toContain('# Heat pump market report');
  });

  it('stops the whole run over HTTP, inner agent runs included (P-8.12)', async () => {
    const imported = await importExample();
    await expectStatus(owner.request('POST', `/apps/${imported.workflowAppId}/releases`, {}), 201);
    let open: () => void = () => {};
    model.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const callsBefore = model.calls;
    const { runId } = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${imported.workflowAppId}/runs`, { input: { question: 'heat pump' } }),
      202,
    );
    try {
      await waitUntil(() => model.calls >= callsBefore + 2);
      await expectStatus(owner.request('POST', `/runs/${runId}/stop`), 202);
    } finally {
      model.gate = undefined;
      open();
    }
    const run = await waitForTerminal(owner, runId);
    expect(run).toMatchObject({ status: 'stopped', reason: 'user-stop', stopCause: 'user' });
    const { view } = await expectStatus<{ view: { workflow: { tasks: { node: string }[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(view.workflow.tasks.map((task) => task.node)).not.toContain('write-report');
  });

  it('refuses to delete an agent that published workflow releases call, with the list (D-P4)', async () => {
    const imported = await importExample();
    await expectStatus(owner.request('POST', `/apps/${imported.workflowAppId}/releases`, {}), 201);
    const refused = await owner.request('DELETE', `/apps/${imported.agentApps['risk-analyst']}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: {
        code: 'app-in-use',
        details: { workflows: [{ appId: imported.workflowAppId, name: 'market-report', releaseVersions: [1] }] },
      },
    });
    const { app } = await expectStatus<{ app: { state: string } }>(
      owner.request('GET', `/apps/${imported.agentApps['risk-analyst']}`),
      200,
    );
    expect(app.state).toBe('active');
  });
});
