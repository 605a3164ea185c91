import type { HostedRunEvent } from '@agentloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldEvent, initialProjection, streamEventsOf } from '../src/domain/a2a-task.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { parseSse } from './run-helpers.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

/** Reads a path of a parsed JSON value. */
const at = (value: unknown, ...keys: (string | number)[]): unknown =>
  keys.reduce<unknown>((current, key) => (current as Record<string | number, unknown> | undefined)?.[key], value);

const event = (sequence: number, fields: Record<string, unknown>) => ({ sequence, runId: 'run_1', ...fields }) as HostedRunEvent;

describe('the A2A projection of a run journal', () => {
  it('maps the run states one to one, an approval to INPUT_REQUIRED and a guardrail refusal to REJECTED', () => {
    let projection = initialProjection();
    expect(projection.state).toBe('TASK_STATE_SUBMITTED');
    projection = foldEvent(projection, event(1, { type: 'run-start' }));
    expect(projection.state).toBe('TASK_STATE_WORKING');
    projection = foldEvent(
      projection,
      event(2, { type: 'approval-request', approvalId: 'a1', toolName: 'lookup', arguments: {}, reason: 'costly' }),
    );
    expect(projection).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED', pending: [{ approvalId: 'a1' }] });
    projection = foldEvent(projection, event(3, { type: 'approval-decide', approvalId: 'a1', approved: true, decidedBy: 'x' }));
    expect(projection.state).toBe('TASK_STATE_WORKING');
    const frame = { taskId: 'run_1', contextId: 'ses_1', timestamp: '2026-01-01T00:00:00.000Z' };
    const ended = streamEventsOf(
      projection,
      event(4, { type: 'run-finish', result: { status: 'succeeded', output: 'done' } }),
      frame,
    );
    expect(ended.events.map((item) => Object.keys(item)[0])).toEqual(['artifactUpdate', 'statusUpdate']);
    expect(ended.after.state).toBe('TASK_STATE_COMPLETED');
    // Nothing changes a terminal task; a step that changes no state yields no event.
    expect(streamEventsOf(ended.after, event(5, { type: 'loop-start' }), frame).events).toEqual([]);
    const refused = foldEvent(
      initialProjection(),
      event(1, { type: 'run-finish', result: { status: 'failed', reason: 'blocked' } }),
    );
    expect(refused.state).toBe('TASK_STATE_REJECTED');
    const stopped = foldEvent(
      initialProjection(),
      event(1, { type: 'run-finish', result: { status: 'stopped', reason: 'user-stop' } }),
    );
    expect(stopped.state).toBe('TASK_STATE_CANCELED');
    const failed = foldEvent(
      initialProjection(),
      event(1, { type: 'workflow-finish', result: { status: 'failed', reason: 'node-failed' } }),
    );
    expect(failed.state).toBe('TASK_STATE_FAILED');
  });
});

/**
 * The JSON-RPC binding's refusals and the queued-task paths (no worker runs here, so every task
 * stays queued until it is cancelled): typed A2A errors, idempotent sends by `messageId`, the
 * durable stop of a queued run, and a replay of a finished task's events from a cursor.
 */
describe.each(dialects)('the A2A JSON-RPC binding (in process) on %s', (dialect) => {
  let platform: TestPlatform;
  let own: SpaceFixture;
  let foreign: SpaceFixture;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    const owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    own = await buildSpace(owner, 'A2A');
    foreign = await buildSpace(owner, 'Elsewhere');
    expect((await owner.request('PUT', `/apps/${own.appId}/a2a`, { enabled: true })).status).toBe(200);
  });
  afterAll(() => platform.destroy());

  const call = async (
    method: string,
    params: unknown,
    options: { key?: string; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const response = await platform.app.request(`/a2a/apps/${own.appId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'a2a-version': '1.0',
        authorization: `Bearer ${options.key ?? own.appKeySecret}`,
        ...options.headers,
      },
      body: options.body ?? JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text.startsWith('{') ? text : '{}') as unknown };
  };
  const message = (messageId: string, extra: Record<string, unknown> = {}) => ({
    message: { messageId, role: 'ROLE_USER', parts: [{ text: 'tell me about agentloom' }], ...extra },
    configuration: { returnImmediately: true },
  });

  it('answers 404 for an app that is not published over A2A, and 401 without its key', async () => {
    const off = await platform.app.request(`/a2a/apps/${foreign.appId}/.well-known/agent-card.json`);
    expect(off.status).toBe(404);
    expect((await call('GetTask', { id: 'x' }, { key: 'al_wrong' })).status).toBe(401);
    // Another space's app key sees nothing of this app.
    expect((await call('GetTask', { id: 'x' }, { key: foreign.appKeySecret })).status).toBe(404);
  });

  it('answers the protocol errors with their A2A codes', async () => {
    expect(at((await call('', {}, { body: '{not json' })).body, 'error', 'code')).toBe(-32700);
    expect(at((await call('', {}, { body: '[]' })).body, 'error', 'code')).toBe(-32600);
    expect(at((await call('NoSuchMethod', {})).body, 'error', 'code')).toBe(-32601);
    expect(at((await call('', {}, { body: `${'['.repeat(100)}${']'.repeat(100)}` })).body, 'error', 'code')).toBe(-32600);
    expect(at((await call('CreateTaskPushNotificationConfig', {})).body, 'error', 'code')).toBe(-32602);
    expect(at((await call('GetExtendedAgentCard', {})).body, 'error', 'code')).toBe(-32004);
    expect(at((await call('GetTask', { id: 'run_unknown' })).body, 'error', 'code')).toBe(-32001);
    expect(at((await call('GetTask', {})).body, 'error', 'code')).toBe(-32602);
    expect(at((await call('GetTask', { id: 'x' }, { headers: { 'a2a-version': '0.3' } })).body, 'error', 'code')).toBe(-32009);
    expect(at((await call('message/send', {}, { headers: { 'a2a-version': '' } })).body, 'error', 'code')).toBe(-32009);
    expect(at((await call('SendMessage', message('m-ctx', { contextId: 'has space' }))).body, 'error', 'code')).toBe(-32602);
    // Another app's session is not a context of this agent, whoever names it.
    const foreignSession = await platform.services.database
      .insertInto('sessions')
      .values({
        id: 'ses_of_another_app',
        space_id: foreign.spaceId,
        app_id: foreign.appId,
        kind: 'agent',
        created_by: 'x',
        created_at: new Date().toISOString(),
        last_run_at: new Date().toISOString(),
      })
      .execute();
    expect(foreignSession).toHaveLength(1);
    expect(at((await call('SendMessage', message('m-foreign', { contextId: 'ses_of_another_app' }))).body, 'error', 'code')).toBe(
      -32602,
    );
  });

  it('starts one task per messageId, cancels it while queued, and replays its events from a cursor', async () => {
    const first = await call('SendMessage', message('m-1'));
    const task = at(first.body, 'result', 'task') as { id: string; status: { state: string }; history: unknown[] };
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(task.history).toEqual([expect.objectContaining({ messageId: 'm-1', role: 'ROLE_USER' })]);
    expect(at((await call('SendMessage', message('m-1'))).body, 'result', 'task', 'id')).toBe(task.id);

    const canceled = await call('CancelTask', { id: task.id });
    expect(at(canceled.body, 'result', 'status', 'state')).toBe('TASK_STATE_CANCELED');
    expect(at((await call('CancelTask', { id: task.id })).body, 'error', 'code')).toBe(-32002);
    expect(at((await call('SendMessage', message('m-2', { taskId: task.id }))).body, 'error', 'code')).toBe(-32004);
    expect(at((await call('SubscribeToTask', { id: task.id })).body, 'error', 'code')).toBe(-32004);

    const replay = await call('SubscribeToTask', { id: task.id, metadata: { afterSeq: 0 } });
    const results = parseSse(replay.text).events.map((item) => at(item.data, 'result'));
    expect(at(results[0], 'task', 'status', 'state')).toBe('TASK_STATE_SUBMITTED');
    expect(at(results.at(-1), 'statusUpdate', 'status', 'state')).toBe('TASK_STATE_CANCELED');

    const listed = await call('ListTasks', { status: 'TASK_STATE_CANCELED' });
    expect((at(listed.body, 'result', 'tasks') as { id: string }[]).map((item) => item.id)).toEqual([task.id]);
  });

  it('keeps push configs per task: refuses a URL the egress policy refuses, never shows credentials', async () => {
    const taskId = at((await call('SendMessage', message('m-push'))).body, 'result', 'task', 'id') as string;
    const denied = (await call('CreateTaskPushNotificationConfig', { taskId, url: 'http://10.1.2.3/hook' })).body;
    expect(at(denied, 'error', 'code')).toBe(-32602);
    expect(at(denied, 'error', 'data', 'code')).toBe('egress-denied');
    const created = await call('CreateTaskPushNotificationConfig', {
      taskId,
      id: 'mine',
      url: 'http://127.0.0.1:9/hook',
      token: 'tok',
      authentication: { scheme: 'Bearer', credentials: 'very-secret-credential' },
    });
    expect(at(created.body, 'result')).toEqual({
      id: 'mine',
      taskId,
      url: 'http://127.0.0.1:9/hook',
      token: 'tok',
      authentication: { scheme: 'Bearer' },
    });
    expect(at((await call('GetTaskPushNotificationConfig', { taskId, id: 'mine' })).body, 'result', 'id')).toBe('mine');
    const listed = await call('ListTaskPushNotificationConfigs', { taskId });
    expect((at(listed.body, 'result', 'configs') as unknown[]).length).toBe(1);
    expect(listed.text).not.toContain('very-secret-credential');
    expect(at((await call('DeleteTaskPushNotificationConfig', { taskId, id: 'mine' })).body, 'result')).toEqual({});
    expect(at((await call('GetTaskPushNotificationConfig', { taskId, id: 'mine' })).body, 'error', 'code')).toBe(-32001);
    await call('CancelTask', { id: taskId });
  });

  it("accepts a context id the client minted (as the SDK's a2aAgent does): a new session, found again by ListTasks", async () => {
    const contextId = 'agentloom-context-1234';
    const first = at((await call('SendMessage', message('m-c1', { contextId }))).body, 'result', 'task') as {
      id: string;
      contextId: string;
    };
    expect(first.contextId).toBe(contextId);
    await call('CancelTask', { id: first.id });
    const second = at((await call('SendMessage', message('m-c2', { contextId }))).body, 'result', 'task') as { id: string };
    await call('CancelTask', { id: second.id });
    const listed = at((await call('ListTasks', { contextId })).body, 'result', 'tasks') as { id: string }[];
    expect(listed.map((item) => item.id).sort()).toEqual([first.id, second.id].sort());
  });
});
