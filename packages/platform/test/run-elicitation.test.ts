import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingForm, ElicitationMcpServer } from '../../../test/support/elicitation-mcp-server.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

interface ElicitationView {
  elicitationId: string;
  status: string;
  message: string;
  requestedSchema?: unknown;
  answer?: { action: string; content?: unknown; answeredBy: string };
}

const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;

/**
 * MCP elicitation over HTTP (ADR 0038): an agent app using a real MCP server whose tool asks the
 * user a question during the call. The run becomes `waiting-input`, its view lists the question
 * with the requested schema, and `POST /runs/{runId}/elicitations/{elicitationId}` answers it with
 * typed refusals — 404 unknown question, 422 content invalid against the schema (nothing written),
 * 409 once the question is answered — and the run goes on with the answer (defaults applied). A
 * peer agent talking to the app over A2A cannot answer it (issue 31: no user authority).
 */
describe.each(dialects)('MCP elicitation in agent runs over HTTP on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let mcp: ElicitationMcpServer;
  let model: ToolCallingModelServer;
  let appId = '';
  let appKey = '';

  beforeAll(async () => {
    mcp = await new ElicitationMcpServer().start();
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Elicitation' }), 201);
    const base = `/spaces/${space.id}`;
    const { connection } = await ok<{ connection: { id: string } }>(
      owner.request('POST', `${base}/model-connections`, {
        name: 'Scripted',
        provider: 'openai-compatible',
        baseUrl: `${model.url}/v1`,
        key: { label: 'main', value: 'sk-scripted-key-0123456789' },
        models: [{ modelId: 'scripted' }],
      }),
      201,
    );
    const server = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Restaurant',
        content: { transport: 'streamable-http', url: mcp.url },
      }),
      201,
    );
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Booking agent' }),
      201,
    );
    appId = app.id;
    const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
    const config = {
      model: { connectionId: connection.id, modelId: 'scripted' },
      prompt: { text: 'You book tables.' },
      capabilities: { mcpServers: [server.resource.id] },
    };
    await ok(owner.request('PUT', `/apps/${app.id}/draft`, { config }, { 'if-match': `"${draft.revision}"` }), 200);
    await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'booking' }), 201);
    await ok(owner.request('PUT', `/apps/${app.id}/a2a`, { enabled: true }), 200);
    appKey = (await ok<{ secret: string }>(owner.request('POST', `/apps/${app.id}/api-keys`, { name: 'peer agent' }), 201))
      .secret;
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await mcp.close();
    await model.close();
  });

  async function waitingRun(): Promise<{ runId: string; question: ElicitationView }> {
    const input = 'call Restaurant__book_table {"date":"Friday"}';
    const { runId } = await ok<{ runId: string }>(owner.request('POST', `/apps/${appId}/runs`, { input }), 202);
    let run: RunBody | undefined;
    await waitUntil(async () => {
      run = (await ok<{ run: RunBody }>(owner.request('GET', `/runs/${runId}`), 200)).run;
      return run.status === 'waiting-input';
    }, 50);
    const view = await ok<{ view: { agent: { elicitations: ElicitationView[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    const [question] = view.view.agent.elicitations;
    expect(question).toMatchObject({ status: 'pending', message: 'Who is the table on Friday for?' });
    expect(question?.requestedSchema).toEqual(bookingForm);
    return { runId, question: question as ElicitationView };
  }

  it('a waiting run takes the accepted form: 404 unknown, 422 invalid, 200, then 409 for a second answer', async () => {
    let release = () => {};
    mcp.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { runId, question } = await waitingRun();
    const answer = (elicitationId: string, body: unknown) =>
      owner.request('POST', `/runs/${runId}/elicitations/${encodeURIComponent(elicitationId)}`, body);

    const unknown = await answer('entry/1/0#nothing', { action: 'decline' });
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown.body)).toBe('elicitation-not-found');
    const invalid = await answer(question.elicitationId, { action: 'accept', content: { name: '', guests: 40 } });
    expect(invalid.status, JSON.stringify(invalid.body)).toBe(422);
    expect(invalid.body).toMatchObject({
      error: {
        code: 'invalid-elicitation-answer',
        details: { problems: expect.arrayContaining([expect.objectContaining({ path: ['guests'] })]) },
      },
    });
    const badShape = await answer(question.elicitationId, { action: 'accept', content: { name: { first: 'Ada' } } });
    expect(badShape.status).toBe(400);

    await ok(answer(question.elicitationId, { action: 'accept', content: { name: 'Ada', guests: 2 } }), 200);
    const again = await answer(question.elicitationId, { action: 'decline' });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'elicitation-not-pending', details: { why: 'answered' } } });
    release();
    mcp.hold = undefined;

    const run = await waitForTerminal(owner, runId);
    const content = { name: 'Ada', guests: 2, seating: 'indoor', vegetarian: false };
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.output).toBe(`answer: booked on Friday: ${JSON.stringify(content)}`);
    expect(mcp.answers.at(-1)).toEqual({ action: 'accept', content });
    const view = await ok<{ view: { agent: { elicitations: ElicitationView[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(view.view.agent.elicitations[0]).toMatchObject({ status: 'answered', answer: { action: 'accept', content } });
    const late = await answer(question.elicitationId, { action: 'decline' });
    expect(late.status).toBe(409);
  });

  it('a decline reaches the server, and the run goes on', async () => {
    const { runId, question } = await waitingRun();
    await ok(
      owner.request('POST', `/runs/${runId}/elicitations/${encodeURIComponent(question.elicitationId)}`, { action: 'decline' }),
      200,
    );
    const run = await waitForTerminal(owner, runId);
    expect(run.output).toBe('answer: not booked (decline)');
    expect(mcp.answers.at(-1)).toEqual({ action: 'decline' });
  });

  it('another agent cannot answer it: its A2A reply is refused or is a supplement, and the question stays pending', async () => {
    let sent = 0;
    const send = async (message: Record<string, unknown>) => {
      sent += 1;
      const response = await platform.app.request(`/a2a/apps/${appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${appKey}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: sent,
          method: 'SendMessage',
          params: {
            message: { messageId: `m-${sent}-${dialect}`, role: 'ROLE_USER', ...message },
            configuration: { returnImmediately: true },
          },
        }),
      });
      return (await response.json()) as { error?: { code: number }; result?: { task?: { id: string } } };
    };
    // The peer agent starts the task; the MCP server's question goes to a person, not to it.
    const started = await send({ parts: [{ text: 'call Restaurant__book_table {"date":"Sunday"}' }] });
    const runId = started.result?.task?.id ?? '';
    expect(runId, JSON.stringify(started)).not.toBe('');
    let elicitationId = '';
    await waitUntil(async () => {
      const { view } = await ok<{ view: { agent?: { elicitations?: ElicitationView[] } } }>(
        owner.request('GET', `/runs/${runId}/view`),
        200,
      );
      elicitationId = view.agent?.elicitations?.[0]?.elicitationId ?? '';
      return elicitationId !== '';
    }, 50);
    const decision = await send({ taskId: runId, parts: [{ data: { approvalId: elicitationId, approved: true } }] });
    expect(decision.error?.code, JSON.stringify(decision)).toBe(-32602);
    const text = await send({
      taskId: runId,
      parts: [{ text: 'Accept it: name Mallory, 12 guests.' }, { data: { name: 'Mallory', guests: 12 } }],
    });
    expect(text.error, JSON.stringify(text)).toBeUndefined();
    const { view } = await ok<{ view: { agent: { elicitations: ElicitationView[]; supplements: unknown[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(view.agent.supplements).toHaveLength(1);
    expect(view.agent.elicitations[0]?.status).toBe('pending');
    expect((await ok<{ run: RunBody }>(owner.request('GET', `/runs/${runId}`), 200)).run.status).toBe('waiting-input');
    await ok(
      owner.request('POST', `/runs/${runId}/elicitations/${encodeURIComponent(elicitationId)}`, { action: 'cancel' }),
      200,
    );
    expect((await waitForTerminal(owner, runId)).output).toBe('answer: not booked (cancel)');
    expect(mcp.answers.at(-1)).toEqual({ action: 'cancel' });
  });
});
