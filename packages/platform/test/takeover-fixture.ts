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

/** What the AC-4 trials run on: a space with a ReAct and a Plan–Executor agent sharing the ledger tool. */
export interface TrialFixture {
  spaceId: string;
  reactAppId: string;
  planAppId: string;
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
  const key = await ok<{ secret: string }>(owner.request('POST', `${base}/api-keys`, { name: 'sse' }), 201);
  return { spaceId: space.id, reactAppId, planAppId, headers: { authorization: `Bearer ${key.secret}` } };
}

/** One run of the trials: what was asked over HTTP and what it must end with. */
export interface TrialRun {
  runId: string;
  kind: 'react' | 'plan-executor';
  input: string;
  tag: string;
  expectedOutput: string;
}

/** Starts a run over HTTP (`POST /apps/:appId/runs`, async) for the given kind; the tag makes its tool queries unique. */
export async function startTrialRun(
  client: TestClient,
  fixture: TrialFixture,
  kind: 'react' | 'plan-executor',
  tag: string,
): Promise<TrialRun> {
  const input = kind === 'react' ? `[t:${tag}] look this up` : `[t:${tag}] brief me`;
  const appId = kind === 'react' ? fixture.reactAppId : fixture.planAppId;
  const { runId } = await ok<{ runId: string }>(client.request('POST', `/apps/${appId}/runs`, { input }), 202);
  const expectedOutput = kind === 'react' ? `done [t:${tag}]` : `plan done [t:${tag}]`;
  return { runId, kind, input, tag, expectedOutput };
}
