/**
 * Human input in workflow apps over HTTP (issue 36): a run of a workflow whose input node asks a
 * person shows `waiting-input` with what it asks, refuses an answer outside the node's schema and
 * choices (422 `invalid-input-answer`), takes exactly one of two racing answers (one 200, one 409
 * `input-already-answered`) and finishes with it on the worker; its events carry the question.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { createInputWorkflowApp, waitForInput } from './input-workflow-fixture.js';
import { parseSse, waitForTerminal } from './run-helpers.js';
import { expectStatus } from './workflow-fixture.js';

describe.each(dialects)('human input in workflow apps on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let worker: RunWorker;
  let appId: string;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    appId = await createInputWorkflowApp(owner, 'Input');
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await platform?.destroy();
  });

  it('waits for input, refuses invalid answers, takes one of two racing answers and finishes with it', async () => {
    const { runId } = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${appId}/runs`, { input: { request: 'the report' } }),
      202,
    );
    const waiting = await waitForInput(owner, runId);
    expect(waiting.pendingInputs).toEqual([
      expect.objectContaining({ interruptId: '0/ask#input', question: 'Publish the report?', choices: ['yes', 'no'] }),
    ]);

    const { view } = await expectStatus<{ view: { workflow: { tasks: { taskId: string; status: string }[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(view.workflow.tasks).toEqual([expect.objectContaining({ taskId: '0/ask', status: 'waiting-input' })]);

    const invalid = await owner.request('POST', `/runs/${runId}/input`, { answer: 'maybe' });
    expect(invalid.status).toBe(422);
    expect((invalid.body as { error: { code: string } }).error.code).toBe('invalid-input-answer');
    const unknown = await owner.request('POST', `/runs/${runId}/input`, { interruptId: '9/none#input', answer: 'yes' });
    expect(unknown.status).toBe(404);
    expect((unknown.body as { error: { code: string } }).error.code).toBe('input-not-found');
    const missing = await owner.request('POST', `/runs/${runId}/input`, {});
    expect(missing.status).toBe(400);

    const racing = await Promise.all([
      owner.request('POST', `/runs/${runId}/input`, { interruptId: '0/ask#input', answer: 'yes' }),
      owner.request('POST', `/runs/${runId}/input`, { interruptId: '0/ask#input', answer: 'no' }),
    ]);
    expect(racing.map((response) => response.status).sort()).toEqual([200, 409]);
    const refused = racing.find((response) => response.status === 409);
    // The later answer is refused as such, or, when the run already finished with the first
    // answer before the later one was read (two HTTP requests race; the worker is fast), as an
    // answer to a run that has ended — the route's documented 409s. Exactly one is taken either way.
    expect(['input-already-answered', 'run-not-active']).toContain(
      (refused?.body as { error?: { code: string } } | undefined)?.error?.code,
    );
    const taken = racing[0]?.status === 200 ? 'yes' : 'no';

    const run = await waitForTerminal(owner, runId);
    expect(run.status).toBe('succeeded');
    expect(run.output).toEqual({ decision: taken });
    const late = await owner.request('POST', `/runs/${runId}/input`, { answer: 'yes' });
    expect(late.status).toBe(409);
    expect((late.body as { error: { code: string } }).error.code).toBe('run-not-active');

    // The question is an event of the run (`workflow-interrupt`), replayed to any follower.
    const events = await owner.request('GET', `/runs/${runId}/events`);
    const types = parseSse(events.body as string).events.map((event) => event.event);
    expect(types).toContain('workflow-interrupt');
    expect(types.at(-1)).toBe('workflow-finish');
    const { view: ended } = await expectStatus<{ view: { workflow: { tasks: { taskId: string; status: string }[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(ended.workflow.tasks).toEqual([expect.objectContaining({ taskId: '0/ask', status: 'succeeded' })]);
  }, 60_000);

  it('a workflow run waiting for input is stopped from its page: stopped, its question no longer pending', async () => {
    const { runId } = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${appId}/runs`, { input: { request: 'the memo' } }),
      202,
    );
    await waitForInput(owner, runId);
    await expectStatus(owner.request('POST', `/runs/${runId}/stop`), 202);
    const run = await waitForTerminal(owner, runId);
    expect(run.status).toBe('stopped');
    const { run: after } = await expectStatus<{ run: { pendingInputs: unknown[] } }>(owner.request('GET', `/runs/${runId}`), 200);
    expect(after.pendingInputs).toEqual([]);
  }, 60_000);
});
