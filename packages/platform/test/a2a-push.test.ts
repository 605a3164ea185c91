import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitUntil } from './run-helpers.js';
import { buildSpace, type SpaceFixture } from './scenario.js';
import { listen, readJson } from './scripted-servers.js';

/**
 * A2A push delivery (issue 32) from the run journal after a durable cursor: a receiver that
 * fails first gets the same event again (at least once, same sequence), in order, and the config
 * ends `done` once the task ended and everything was pushed.
 */
describe('A2A push notifications (SQLite)', () => {
  let platform: TestPlatform;
  let own: SpaceFixture;
  let worker: RunWorker | undefined;
  const received: { status: number; seq: unknown; kind: string; state: unknown }[] = [];
  let failuresLeft = 1;
  const receiver = createServer((request, response) => {
    void readJson(request).then((body) => {
      const status = failuresLeft-- > 0 ? 500 : 204;
      const [kind, value] = Object.entries(body)[0] as [
        string,
        { metadata?: Record<string, unknown>; status?: { state: string } },
      ];
      received.push({ status, kind, seq: value.metadata?.['agentloom.seq'], state: value.status?.state });
      response.writeHead(status).end();
    });
  });
  let hook = '';

  beforeAll(async () => {
    hook = `${await listen(receiver)}/hook`;
    platform = await createTestPlatform('sqlite', { webhookRetryMs: 20 });
    await seedUser(platform, 'owner@example.com');
    const owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    own = await buildSpace(owner, 'A2A push');
    expect((await owner.request('PUT', `/apps/${own.appId}/a2a`, { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await worker?.stop();
    await platform?.destroy();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const call = async (method: string, params: unknown) => {
    const response = await platform.app.request(`/a2a/apps/${own.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${own.appKeySecret}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await response.json()) as { result: Record<string, unknown> }).result;
  };

  it('pushes again after a failure, in order, and ends the config when the task ended', { timeout: 30_000 }, async () => {
    const { task } = (await call('SendMessage', {
      message: { messageId: 'push-1', role: 'ROLE_USER', parts: [{ text: 'tell me about agentloom' }] },
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url: hook, token: 't' } },
    })) as { task: { id: string } };
    // Cancelled while queued: the journal holds the stop and the end; a worker's deliverer pushes them.
    expect(((await call('CancelTask', { id: task.id })) as { status: { state: string } }).status.state).toBe(
      'TASK_STATE_CANCELED',
    );
    worker = platform.startWorker();
    const config = () =>
      platform.services.database
        .selectFrom('a2a_push_configs')
        .selectAll()
        .where('task_id', '=', task.id)
        .executeTakeFirstOrThrow();
    await waitUntil(async () => (await config()).state === 'done', 50);
    expect(received.map(({ status, kind, state }) => [status, kind, state])).toEqual([
      [500, 'statusUpdate', 'TASK_STATE_CANCELED'],
      [204, 'statusUpdate', 'TASK_STATE_CANCELED'],
    ]);
    expect(received[0]?.seq).toBe(received[1]?.seq);
    expect((await config()).delivered_sequence).toBe(received[1]?.seq);
  });
});
