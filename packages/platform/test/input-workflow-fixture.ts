import type { TestClient } from './harness.js';
import { expectStatus, saveDraft } from './workflow-fixture.js';

/**
 * A workflow app whose only node asks a person (issue 36): "Publish {{request}}?", `yes` or `no`,
 * into `decision`. It binds nothing, so a space without connections runs it.
 */
export const inputWorkflowDefinition = {
  formatVersion: 1,
  kind: 'workflow',
  name: 'ask-to-publish',
  state: {
    request: { reducer: 'last-value', schema: { type: 'string' } },
    decision: { reducer: 'last-value', schema: { type: 'string' } },
  },
  nodes: [
    {
      name: 'ask',
      kind: 'input',
      question: 'Publish {{request}}?',
      schema: { type: 'string' },
      choices: ['yes', 'no'],
      output: 'decision',
    },
  ],
  edges: [
    { from: 'START', to: 'ask' },
    { from: 'ask', to: 'END' },
  ],
  output: ['decision'],
};

/** Creates a space and the input workflow app in it, published; answers the app's id. */
export async function createInputWorkflowApp(owner: TestClient, spaceName: string): Promise<string> {
  const { space } = await expectStatus<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: spaceName }), 201);
  const { app } = await expectStatus<{ app: { id: string } }>(
    owner.request('POST', `/spaces/${space.id}/apps`, { kind: 'workflow', name: 'Ask to publish' }),
    201,
  );
  await expectStatus(saveDraft(owner, app.id, { definition: inputWorkflowDefinition, bindings: { agents: {}, tools: {} } }), 200);
  await expectStatus(owner.request('POST', `/apps/${app.id}/releases`, {}), 201);
  return app.id;
}

/** A run as `GET /runs/{runId}` shows it, with what it waits for. */
export interface WaitingRun {
  status: string;
  output: unknown;
  pendingInputs: { interruptId: string; question: string; choices: unknown[] | null; schema: unknown }[];
}

/** Polls `GET /runs/{runId}` until the run is `waiting-input`; answers it. */
export async function waitForInput(client: TestClient, runId: string): Promise<WaitingRun> {
  for (;;) {
    const { status, body } = await client.request('GET', `/runs/${runId}`);
    if (status !== 200) throw new Error(`GET /runs/${runId} → ${status} ${JSON.stringify(body)}`);
    const run = (body as { run: WaitingRun }).run;
    if (run.status === 'waiting-input') return run;
    if (['succeeded', 'failed', 'stopped'].includes(run.status)) throw new Error(`run ended ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
