import { expect } from 'vitest';
import type { TestClient } from './harness.js';
import { roleMarkers } from './takeover-servers.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/** The run limits both trial agents are published with: what a takeover must never reset. */
export const trialExecution = {
  maxLoops: 40,
  timeoutMs: 600_000,
  parallel: true,
  // An attempt a dead owner left open is `unknown-outcome`, which is retryable: at most one more execution.
  retry: { enabled: true, attempts: 2, waitMs: 0 },
};

/** The run policy of the trial workflow: its loop budget is shared by its two parallel agent nodes (W-6). */
export const trialWorkflowPolicy = { maxLoops: 40, timeoutMs: 600_000 };

/**
 * What the AC-4 trials run on: a space with a ReAct and a Plan–Executor agent sharing the ledger
 * tool, and a workflow that runs both in parallel, joins them and files the result with the tool.
 */
export interface TrialFixture {
  spaceId: string;
  reactAppId: string;
  planAppId: string;
  workflowAppId: string;
  /** Headers of a space API key (the SSE followers use it). */
  headers: Record<string, string>;
}

/**
 * Builds the space through the HTTP API: the scripted model connection, the `lookup` HTTP tool on
 * the ledger server, a published ReAct agent that calls it, and a published Plan–Executor agent
 * whose planner delegates to two `researcher` executors that call it (PLATFORM.md P-4.3).
 */
export async function buildTrialApps(
  owner: TestClient,
  modelUrl: string,
  toolUrl: string,
  execution: Record<string, unknown> = trialExecution,
): Promise<TrialFixture> {
  const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Takeover trials' }), 201);
  const base = `/spaces/${space.id}`;
  const { connection } = await ok<{ connection: { id: string } }>(
    owner.request('POST', `${base}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${modelUrl}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    }),
    201,
  );
  const { resource: tool } = await ok<{ resource: { id: string } }>(
    owner.request('POST', `${base}/resources`, {
      type: 'tool',
      name: 'lookup',
      content: {
        kind: 'http',
        description: 'Looks something up (every execution is written to the ledger).',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        request: { method: 'POST', url: `${toolUrl}/lookup`, headers: {} },
      },
    }),
    201,
  );
  const model = { connectionId: connection.id, modelId: 'scripted' };
  const publish = async (mode: 'react' | 'plan-executor', config: Record<string, unknown>) => {
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode, name: `Trial ${mode}` }),
      201,
    );
    const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
    await ok(
      owner.request(
        'PUT',
        `/apps/${app.id}/draft`,
        { config: { model, execution, ...config } },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: mode }), 201);
    return app.id;
  };
  const reactAppId = await publish('react', {
    prompt: { text: `${roleMarkers.react}: answer with the lookup tool.` },
    capabilities: { builtIn: [], tools: [tool.id], skills: [] },
  });
  const planAppId = await publish('plan-executor', {
    execution: { ...execution, maxParallelExecutors: 2 },
    planner: { prompt: { text: `${roleMarkers.planner}: delegate research, then answer.` } },
    executors: [
      {
        name: 'researcher',
        description: 'Researches one topic.',
        prompt: { text: `${roleMarkers.researcher}: research the topic with the lookup tool.` },
        capabilities: { builtIn: [], tools: [tool.id], skills: [] },
      },
    ],
  });
  const workflowAppId = await publishTrialWorkflow(owner, base, { research: reactAppId, plan: planAppId }, tool.id);
  const key = await ok<{ secret: string }>(owner.request('POST', `${base}/api-keys`, { name: 'sse' }), 201);
  return { spaceId: space.id, reactAppId, planAppId, workflowAppId, headers: { authorization: `Bearer ${key.secret}` } };
}

/**
 * Publishes the trial workflow (a workflow app, P-7.1): the ReAct agent (`research`) and the Plan–Executor agent
 * (`plan`) in parallel on the run's tagged question, a join, then the `lookup` tool as a
 * capability node (`file`) — so the agents' inner tool calls and the workflow's own tool call
 * all land in the ledger.
 */
async function publishTrialWorkflow(
  owner: TestClient,
  base: string,
  agents: { research: string; plan: string },
  toolId: string,
): Promise<string> {
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `${base}/apps`, { kind: 'workflow', name: 'Trial workflow' }),
    201,
  );
  const text = { type: 'string' };
  const definition = {
    formatVersion: 1,
    kind: 'workflow',
    name: 'trial-workflow',
    state: {
      question: { reducer: 'last-value', schema: text },
      filing: { reducer: 'last-value', schema: text },
      notes: { reducer: 'append', schema: text },
      filed: { reducer: 'last-value', schema: {} },
    },
    nodes: [
      { name: 'research', kind: 'agent', agent: 'research', input: { template: '{{question}} look this up' }, output: 'notes' },
      { name: 'plan', kind: 'agent', agent: 'plan', input: { template: '{{question}} brief me' }, output: 'notes' },
      // The filing tool is safe to call again (the ledger keys on the query): a call cut by a kill is retried.
      {
        name: 'file',
        kind: 'capability',
        tool: 'lookup',
        input: { query: 'filing' },
        output: 'filed',
        retry: { attempts: 10, waitMs: 100, retryOn: ['unknown-outcome'] },
      },
    ],
    edges: [
      { from: 'START', to: 'research' },
      { from: 'START', to: 'plan' },
      { from: ['research', 'plan'], to: 'file' },
      { from: 'file', to: 'END' },
    ],
    policy: trialWorkflowPolicy,
    output: ['notes', 'filed'],
  };
  const bindings = {
    agents: { research: { appId: agents.research }, plan: { appId: agents.plan } },
    tools: { lookup: { resourceId: toolId } },
  };
  const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
  await ok(
    owner.request('PUT', `/apps/${app.id}/draft`, { config: { definition, bindings } }, { 'if-match': `"${draft.revision}"` }),
    200,
  );
  await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'workflow' }), 201);
  return app.id;
}

/** The task ids of the trial workflow's two parallel agent nodes (superstep 0), and of its tool node. */
export const trialWorkflowTasks = { research: '0/research', plan: '0/plan', file: '1/file' } as const;

/** The kinds of trial runs. */
export type TrialKind = 'react' | 'plan-executor' | 'workflow';

/** One run of the trials: what was asked over HTTP and what it must end with. */
export interface TrialRun {
  runId: string;
  kind: TrialKind;
  /** A question (agents) or the workflow's input object. */
  input: unknown;
  tag: string;
  /** The agent's answer, or the workflow's output as JSON (its notes sorted). */
  expectedOutput: string;
}

/** Starts a run over HTTP (`POST /apps/:appId/runs`, async) for the given kind; the tag makes its tool queries unique. */
export async function startTrialRun(client: TestClient, fixture: TrialFixture, kind: TrialKind, tag: string): Promise<TrialRun> {
  const question = `[t:${tag}]`;
  const input =
    kind === 'react'
      ? `${question} look this up`
      : kind === 'plan-executor'
        ? `${question} brief me`
        : { question, filing: `${question} filed` };
  const appId = kind === 'react' ? fixture.reactAppId : kind === 'plan-executor' ? fixture.planAppId : fixture.workflowAppId;
  const { runId } = await ok<{ runId: string }>(client.request('POST', `/apps/${appId}/runs`, { input }), 202);
  const expectedOutput =
    kind === 'react'
      ? `done ${question}`
      : kind === 'plan-executor'
        ? `plan done ${question}`
        : // The HTTP tool answers the ledger server's JSON body as text.
          JSON.stringify({
            notes: [`done ${question}`, `plan done ${question}`],
            filed: JSON.stringify({ value: `found ${question} filed` }),
          });
  return { runId, kind, input, tag, expectedOutput };
}
