import { checkBubblewrap } from '@agentloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentReleaseSnapshot } from '../src/domain/release-snapshot.js';
import { releaseNeedsIsolation } from '../src/domain/run-requirements.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal } from './run-helpers.js';
import { CountingToolServer } from './scripted-servers.js';

/** Whether bubblewrap runs here: the script run needs it (CI installs it and never skips, as the SDK's suites). */
const bubblewrap = checkBubblewrap();
const scriptRunsHere = bubblewrap.available || Boolean(process.env.CI);

/** The offline demo model's scripts (PLATFORM.md §4.3): each role's turns, chosen by its system prompt and task. */
const demoScripts = [
  // The planner reads its background task's result as a later input (ADR 0033) and answers with it.
  { whenSystemContains: 'You plan', whenInputContains: 'Background task', steps: [{ text: 'final: {{input}}' }] },
  {
    whenSystemContains: 'You plan',
    steps: [
      { toolCalls: [{ name: 'researcher', arguments: { task: 'Find the capital of France.' } }] },
      { text: 'early answer' },
    ],
  },
  { whenSystemContains: 'You research', steps: [{ text: 'The capital is Paris.' }] },
  // The scripted agent writes one script that calls `lookup` twice; only its result comes back.
  {
    whenSystemContains: 'You script',
    steps: [
      {
        toolCalls: [
          {
            name: 'run_script',
            arguments: {
              script:
                "const a = await tools.lookup({ query: 'one' }); const b = await tools.lookup({ query: 'three' }); return [a, b].join(' | ');",
            },
          },
        ],
      },
      { text: 'script said: {{result1}}' },
    ],
  },
];

/**
 * The code orchestration and background executor switches of an agent app (issue 37, N-15, N-7)
 * through the HTTP API, on SQLite and PostgreSQL: bad values are refused at their paths (400 on
 * save, typed issues on validate), a Plan–Executor agent with a background executor runs on the
 * offline demo model and answers with the result that arrived later, and an agent whose model
 * writes a script needs an isolating worker and runs the script's two tool calls in bubblewrap.
 */
describe.each(dialects)('the code orchestration and background switches on %s (N-15, N-7)', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let tool: CountingToolServer;
  let spaceId = '';
  let connectionId = '';
  let toolId = '';
  let leadAppId = '';

  const createApp = async (mode: 'react' | 'plan-executor', name: string) => {
    const created = await owner.request('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode, name });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return (created.body as { app: { id: string } }).app.id;
  };
  const putDraft = async (appId: string, config: Record<string, unknown>) => {
    const { draft } = (await owner.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } };
    return owner.request('PUT', `/apps/${appId}/draft`, { config }, { 'if-match': `"${draft.revision}"` });
  };
  const model = () => ({ connectionId, modelId: 'demo-1' });
  const runToEnd = async (appId: string, input: string) => {
    const queued = await owner.request('POST', `/apps/${appId}/runs`, { input });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    return waitForTerminal(owner, (queued.body as { runId: string }).runId);
  };
  const publish = async (appId: string) => {
    const published = await owner.request('POST', `/apps/${appId}/releases`, { notes: 'switches' });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const { release } = (await owner.request('GET', `/apps/${appId}/releases/1`)).body as {
      release: { snapshot: AgentReleaseSnapshot };
    };
    return release.snapshot;
  };

  beforeAll(async () => {
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const space = await owner.request('POST', '/spaces', { name: 'Switches' });
    spaceId = (space.body as { space: { id: string } }).space.id;
    const connection = await owner.request('POST', `/spaces/${spaceId}/model-connections`, {
      name: 'Offline',
      provider: 'offline-demo',
      settings: { demoScripts, demoFallback: 'No script.' },
      models: [{ modelId: 'demo-1' }],
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    connectionId = (connection.body as { connection: { id: string } }).connection.id;
    const lookup = await owner.request('POST', `/spaces/${spaceId}/resources`, {
      type: 'tool',
      name: 'lookup',
      content: {
        kind: 'http',
        description: 'Looks something up.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        request: { method: 'POST', url: `${tool.url}/lookup`, headers: {} },
      },
    });
    expect(lookup.status, JSON.stringify(lookup.body)).toBe(201);
    toolId = (lookup.body as { resource: { id: string } }).resource.id;
  });
  // Closing the platform stops its workers.
  afterAll(async () => {
    await platform.destroy();
    await tool.close();
  });

  it('refuses bad switch values at their paths and reports scripts with nothing to call', async () => {
    const appId = await createApp('plan-executor', 'Refused');
    const refused = await putDraft(appId, {
      model: model(),
      execution: { codeOrchestration: { enabled: 'yes', maxToolCalls: 0, maxMemoryMegabytes: 8, sandbox: 'process' } },
      executors: [{ name: 'researcher', description: 'Researches.', prompt: { text: 'You research.' }, background: 'sometimes' }],
    });
    expect(refused.status).toBe(400);
    const error = (refused.body as { error: { code: string; details: { issues: { path: string }[] } } }).error;
    expect(error.code).toBe('invalid-request');
    expect(error.details.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([
        'config.execution.codeOrchestration.enabled',
        'config.execution.codeOrchestration.maxToolCalls',
        'config.execution.codeOrchestration.maxMemoryMegabytes',
        'config.execution.codeOrchestration',
        'config.executors.0.background',
      ]),
    );
    expect(((await owner.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } }).draft.revision).toBe(1);

    const bare = await createApp('react', 'Bare');
    const saved = await putDraft(bare, {
      model: model(),
      prompt: { text: 'You script.' },
      execution: { codeOrchestration: { enabled: true } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { valid, issues } = (await owner.request('POST', `/apps/${bare}/draft/validate`)).body as {
      valid: boolean;
      issues: { path: string; code: string }[];
    };
    expect(valid).toBe(false);
    expect(issues.map(({ path, code }) => `${path} ${code}`)).toEqual([
      'execution.codeOrchestration.enabled nothing-to-orchestrate',
    ]);
  });

  it('publishes a background executor and the planner answers with the result that arrived later', async () => {
    const appId = await createApp('plan-executor', 'Lead');
    leadAppId = appId;
    const saved = await putDraft(appId, {
      model: model(),
      planner: { prompt: { text: 'You plan and delegate.' } },
      executors: [{ name: 'researcher', description: 'Researches.', prompt: { text: 'You research.' }, background: true }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const snapshot = await publish(appId);
    expect(snapshot.executors[0]?.background).toBe(true);
    expect(releaseNeedsIsolation(snapshot)).toBe(false);

    platform.startWorker({ capabilities: { isolation: false } });
    const run = await runToEnd(appId, 'Which city is the capital of France?');
    // A delegation that waited would have given the planner the tool result and "early answer";
    // the background task's result came as a later input instead.
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatch(/^\[Scripted demo\] final: Background task /);
    expect(run.output).toContain('The capital is Paris.');
    const events = await platform.services.runClient.readEvents(run.id);
    const delegation = events.find((event) => event.type === 'tool-call-finish' && event.toolName === 'researcher');
    expect(delegation && 'status' in delegation ? delegation.status : undefined).toBe('succeeded');
  });

  it.runIf(scriptRunsHere)(
    'runs a script of two tool calls in bubblewrap on an isolating worker only; one result enters the context',
    async () => {
      const appId = await createApp('react', 'Scripter');
      const saved = await putDraft(appId, {
        model: model(),
        prompt: { text: 'You script.' },
        capabilities: { tools: [toolId] },
        execution: { codeOrchestration: { enabled: true, maxToolCalls: 5, maxMemoryMegabytes: 64 } },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const snapshot = await publish(appId);
      expect(snapshot.execution.codeOrchestration).toEqual({ enabled: true, maxToolCalls: 5, maxMemoryMegabytes: 64 });
      expect(releaseNeedsIsolation(snapshot)).toBe(true);

      const queued = await owner.request('POST', `/apps/${appId}/runs`, { input: 'Look up one and three.' });
      const { runId } = queued.body as { runId: string };
      // The plain worker of the test before (no isolation) leaves the run for an isolating one: it
      // finishes a run queued after it, so it has looked at the queue with the script run in it.
      expect((await runToEnd(leadAppId, 'Which city is the capital of France, again?')).status).toBe('succeeded');
      expect((await platform.services.runClient.describeRun(runId)).status).toBe('pending');
      platform.startWorker({ capabilities: { isolation: true } });
      const run = await waitForTerminal(owner, runId);
      expect(run.status, JSON.stringify(run)).toBe('succeeded');
      expect(run.output).toMatch(/^\[Scripted demo\] script said: .*found 3.* \| .*found 5/);
      expect([tool.calls.get('one'), tool.calls.get('three')]).toEqual([1, 1]);
      // Each call inside the script is an operation of the run (`S#i`), shown like a direct call.
      const events = await platform.services.runClient.readEvents(runId);
      const inner = events.filter((event) => event.type === 'tool-call-finish' && /#\d+$/.test(String(event.operationId)));
      expect(inner).toHaveLength(2);
    },
  );
});
