import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from './harness.js';
import { httpClient, type PlatformProcess, startProcess } from './process-harness.js';
import { skipDemoThinking, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, listen, readJson, ScriptedModelServer } from './scripted-servers.js';

/** The official client's task state numbers (proto enum `TaskState`). */
const State = { submitted: 1, working: 2, completed: 3, failed: 4, canceled: 5, inputRequired: 6, rejected: 7 } as const;
const userRole = 1;

/** A port nothing listens on now: the restarted server takes the same one, so the card's URL stays valid. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface Update {
  kind: string;
  state?: number;
  seq: number;
}

/** What one stream event of the official client says: its kind, the state it carries, its journal sequence. */
function updateOf(event: { payload?: { $case: string; value: unknown } }): Update {
  const payload = event.payload as { $case: string; value: Record<string, unknown> };
  const value = payload.value as {
    status?: { state: number };
    metadata?: Record<string, unknown>;
  };
  return { kind: payload.$case, state: value.status?.state, seq: Number(value.metadata?.['agentloom.seq'] ?? -1) };
}

function textMessage(text: string, extra: Record<string, unknown> = {}) {
  return {
    messageId: `msg-${Math.random().toString(36).slice(2)}`,
    role: userRole,
    parts: [{ content: { $case: 'text' as const, value: text } }],
    ...extra,
  } as never;
}

/**
 * Interop with the official `@a2a-js/sdk` 1.3.0 client (issue 32): a real `agentloom serve`
 * process on 127.0.0.1 with its SQLite file publishes apps over A2A; the client discovers the
 * card, sends (blocking, streaming), reads, lists and cancels tasks, answers an input-required
 * task with a second message, and re-subscribes after the server process was SIGKILLed and
 * started again — with the journal sequence as its cursor, getting exactly the events it missed.
 */
describe('A2A 1.0 server, driven by the official @a2a-js/sdk client', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-a2a-'));
  let port = 0;
  let server: PlatformProcess;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let base = '';
  const apps = { demo: '', scripted: '', asking: '' };
  const keys = { demo: '', scripted: '', asking: '' };

  const environment = {
    AGENTLOOM_SECRET_KEY: '',
    AGENTLOOM_DATABASE_URL: '',
    AGENTLOOM_RUN_LEASE_MS: '1500',
    INIT_CWD: dataDirectory,
  };
  const start = async () => {
    server = startProcess('serve', environment, ['--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDirectory]);
    await server.waitFor(/listening on http/);
  };

  const clientFor = (app: keyof typeof apps, polling = false): Promise<Client> => {
    const key = keys[app];
    const authorised: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` } });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: authorised })],
        clientConfig: { polling },
      }),
    );
    return factory.createFromUrl(`${base}/a2a/apps/${apps[app]}/.well-known/agent-card.json`, '');
  };

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await start();
    const password = (await server.waitFor(/with password (\S+)/))[1] as string;
    owner = await httpClient(base).login('admin@localhost', password);
    const spaces = (await owner.request('GET', '/spaces')).body as { spaces: { id: string }[] };
    const listed = (await owner.request('GET', `/spaces/${spaces.spaces[0]?.id}/apps`)).body as {
      apps: { id: string; name: string }[];
    };
    // The seeded Demo space's ReAct assistant (scripted offline model, a file tool and an HTTP tool).
    apps.demo = listed.apps.find((app) => app.name === 'Demo assistant')?.id as string;
    // Its answer at once, not after the 12 s pause the demo's crash button needs.
    await skipDemoThinking(owner, spaces.spaces[0]?.id as string, [apps.demo]);
    apps.scripted = (await buildScriptedApp(owner, model.url, tool.url, 'Interop')).appId;
    const asking = await buildScriptedApp(owner, model.url, tool.url, 'Asking');
    apps.asking = asking.appId;
    const { draft } = (await owner.request('GET', `/apps/${asking.appId}/draft`)).body as {
      draft: { revision: number; config: Record<string, unknown> };
    };
    const permissions = { rules: [{ tool: 'lookup', decision: 'ask', reason: 'Lookups cost money.' }] };
    expect(
      (
        await owner.request(
          'PUT',
          `/apps/${asking.appId}/draft`,
          { config: { ...draft.config, permissions } },
          { 'if-match': `"${draft.revision}"` },
        )
      ).status,
    ).toBe(200);
    expect((await owner.request('POST', `/apps/${asking.appId}/releases`, { notes: 'ask' })).status).toBe(201);
    for (const name of Object.keys(apps) as (keyof typeof apps)[]) {
      const created = await owner.request('POST', `/apps/${apps[name]}/api-keys`, { name: 'a2a' });
      keys[name] = (created.body as { secret: string }).secret;
    }
  }, 240_000);

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await model?.close();
    await tool?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('is off by default: no card, no endpoint, until the app is switched on', async () => {
    const card = await fetch(`${base}/a2a/apps/${apps.demo}/.well-known/agent-card.json`);
    expect(card.status).toBe(404);
    expect(((await card.json()) as { error: { code: string } }).error.code).toBe('a2a-not-enabled');
    expect(((await owner.request('GET', `/apps/${apps.demo}/a2a`)).body as { a2a: { enabled: boolean } }).a2a.enabled).toBe(
      false,
    );
    for (const app of Object.values(apps)) {
      const switched = await owner.request('PUT', `/apps/${app}/a2a`, { enabled: true });
      expect(switched.status).toBe(200);
    }
  });

  it('serves an Agent Card the official client discovers', async () => {
    const card = (await (await fetch(`${base}/a2a/apps/${apps.demo}/.well-known/agent-card.json`)).json()) as Record<
      string,
      unknown
    >;
    expect(card).toMatchObject({
      name: 'Demo assistant',
      supportedInterfaces: [{ url: `${base}/a2a/apps/${apps.demo}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { appKey: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    });
    const client = await clientFor('demo');
    expect(client.protocolVersion).toBe('1.0');
    const unauthenticated = await fetch(`${base}/a2a/apps/${apps.demo}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'run_x' } }),
    });
    expect(unauthenticated.status).toBe(401);
  });

  it('answers a blocking send with the completed task; GetTask and ListTasks read the same run', async () => {
    const client = await clientFor('demo');
    const task = (await client.sendMessage({ message: textMessage('hello there') } as never)) as unknown as {
      id: string;
      contextId: string;
      status: { state: number };
      artifacts: { parts: { content: { value: string } }[] }[];
      history: { messageId: string }[];
    };
    expect(task.id).toMatch(/^run_/);
    expect(task.contextId).toMatch(/^ses_/);
    expect(task.status.state).toBe(State.completed);
    // The scripted demo model labels every answer it gives.
    expect(task.artifacts[0]?.parts[0]?.content.value).toMatch(/^\[Scripted demo\] /);
    const read = (await client.getTask({ id: task.id } as never)) as unknown as { status: { state: number } };
    expect(read.status.state).toBe(State.completed);
    // The task is the run: the REST API shows the same run succeeded.
    expect(((await owner.request('GET', `/runs/${task.id}`)).body as { run: { status: string } }).run.status).toBe('succeeded');
    const listed = (await client.listTasks({ contextId: task.contextId } as never)) as unknown as { tasks: { id: string }[] };
    expect(listed.tasks.map((item) => item.id)).toEqual([task.id]);
    // A second message in the same context is a new task (a new run of the session).
    const second = (await client.sendMessage({
      message: textMessage('hello again', { contextId: task.contextId }),
    } as never)) as unknown as {
      id: string;
      contextId: string;
    };
    expect(second.contextId).toBe(task.contextId);
    expect(second.id).not.toBe(task.id);
  });

  it('streams a send: the task first, then its states, the output artifact before COMPLETED', async () => {
    const client = await clientFor('demo');
    const updates: Update[] = [];
    for await (const event of client.sendMessageStream({ message: textMessage('what is agentloom?') } as never))
      updates.push(updateOf(event as never));
    expect(updates[0]?.kind).toBe('task');
    expect(updates.slice(-2).map((update) => update.kind)).toEqual(['artifactUpdate', 'statusUpdate']);
    expect(updates.at(-1)?.state).toBe(State.completed);
    const sequences = updates.slice(1).map((update) => update.seq);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
  });

  it('cancels a running task (the durable stop): CANCELED, and a second cancel is refused', async () => {
    model.answerDelayMs = 120_000;
    const client = await clientFor('scripted', true);
    const task = (await client.sendMessage({ message: textMessage('please lookup cancel-me') } as never)) as unknown as {
      id: string;
    };
    await waitUntil(() => model.answering.size > 0, 50);
    const canceled = (await client.cancelTask({ id: task.id } as never)) as unknown as { status: { state: number } };
    expect(canceled.status.state).toBe(State.canceled);
    await expect(client.cancelTask({ id: task.id } as never)).rejects.toMatchObject({
      name: expect.stringMatching(/NotCancelable/),
    });
    model.answerDelayMs = 0;
  });

  it('asks for input: a second message with the decision lets the task complete', async () => {
    const client = await clientFor('asking');
    const waiting = (await client.sendMessage({ message: textMessage('please lookup approve-me') } as never)) as unknown as {
      id: string;
      contextId: string;
      status: { state: number; message: { parts: { content: { $case: string; value: unknown } }[] } };
    };
    expect(waiting.status.state).toBe(State.inputRequired);
    const question = waiting.status.message.parts.find((part) => part.content.$case === 'data')?.content.value as {
      approvals: { approvalId: string; toolName: string }[];
    };
    expect(question.approvals).toEqual([expect.objectContaining({ toolName: 'lookup' })]);
    const answered = (await client.sendMessage({
      message: {
        messageId: 'answer-1',
        role: userRole,
        taskId: waiting.id,
        contextId: waiting.contextId,
        parts: [{ content: { $case: 'data', value: { approvalId: question.approvals[0]?.approvalId, approved: true } } }],
      },
    } as never)) as unknown as {
      id: string;
      status: { state: number };
      artifacts: { parts: { content: { value: string } }[] }[];
    };
    expect(answered.id).toBe(waiting.id);
    expect(answered.status.state).toBe(State.completed);
    expect(answered.artifacts[0]?.parts[0]?.content.value).toMatch(/^answer: /);
    expect(tool.calls.get('please lookup approve-me')).toBe(1);
  });

  it('pushes the task to a webhook through the egress policy, with its token and credentials', async () => {
    const received: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
    const receiver = createHttpServer((request, response) => {
      void readJson(request).then((body) => {
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    const hook = `${await listen(receiver)}/hook`;
    try {
      const client = await clientFor('scripted', true);
      const task = (await client.sendMessage({ message: textMessage('hello push') } as never)) as unknown as { id: string };
      const config = (await client.createTaskPushNotificationConfig({
        taskId: task.id,
        id: 'hook-1',
        url: hook,
        token: 'notify-token',
        authentication: { scheme: 'Bearer', credentials: 'receiver-credential' },
      } as never)) as unknown as { id: string; url: string };
      expect(config).toMatchObject({ id: 'hook-1', url: hook });
      const states = () => received.map((item) => (item.body.statusUpdate as { status?: { state: string } })?.status?.state);
      await waitUntil(() => states().includes('TASK_STATE_COMPLETED'), 50);
      expect(received[0]?.headers).toMatchObject({
        'content-type': 'application/a2a+json',
        'x-a2a-notification-token': 'notify-token',
        authorization: 'Bearer receiver-credential',
      });
      expect(received.map((item) => Object.keys(item.body)[0])).toEqual(['statusUpdate', 'artifactUpdate', 'statusUpdate']);
      expect(states()).toEqual(['TASK_STATE_WORKING', undefined, 'TASK_STATE_COMPLETED']);
      const listed = (await client.listTaskPushNotificationConfig({ taskId: task.id } as never)) as unknown as {
        configs: { id: string }[];
      };
      expect(listed.configs.map((item) => item.id)).toEqual(['hook-1']);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('re-subscribes after the server process is SIGKILLed and restarted: no gap, no duplicate', {
    timeout: 240_000,
  }, async () => {
    model.answerDelayMs = 120_000;
    const client = await clientFor('scripted');
    const before: Update[] = [];
    let taskId = '';
    for await (const event of client.sendMessageStream({ message: textMessage('please lookup survive-kill') } as never)) {
      const update = updateOf(event as never);
      if (update.kind === 'task') taskId = (event as { payload: { value: { id: string } } }).payload.value.id;
      before.push(update);
      if (update.state === State.working) break;
    }
    await waitUntil(() => model.answering.size > 0, 50);
    await server.kill('SIGKILL');
    model.answerDelayMs = 0;
    await start();

    // The spec's resubscription (no cursor) would give the state now; the resume cursor gives the rest.
    const cursor = String(before.at(-1)?.seq);
    const resumed = await clientFor('scripted');
    const after: Update[] = [];
    for await (const event of resumed.resubscribeTask(
      { id: taskId } as never,
      { serviceParameters: { 'Last-Event-ID': cursor } } as never,
    ))
      after.push(updateOf(event as never));
    expect(after[0]).toMatchObject({ kind: 'task', state: State.working, seq: Number(cursor) });
    expect(after.at(-1)).toMatchObject({ kind: 'statusUpdate', state: State.completed });

    // Everything from the start, replayed from the journal: exactly what the two streams saw together
    // after the first stream's opening task (a snapshot as of its sequence: when the worker had
    // already started the run, it summed up the first status update).
    const replay: Update[] = [];
    for await (const event of resumed.resubscribeTask(
      { id: taskId } as never,
      { serviceParameters: { 'Last-Event-ID': '0' } } as never,
    ))
      replay.push(updateOf(event as never));
    const opening = Number(before[0]?.seq);
    expect(replay.slice(1).filter((update) => Number(update.seq) > opening)).toEqual([...before.slice(1), ...after.slice(1)]);
    expect(tool.calls.get('please lookup survive-kill')).toBe(1);
    // A finished task has nothing left to follow without a cursor (A2A: UnsupportedOperationError).
    await expect(
      (async () => {
        for await (const _ of resumed.resubscribeTask({ id: taskId } as never)) void _;
      })(),
    ).rejects.toThrow(/ended/);
  });
});
