/**
 * The SDK's A2A client (`a2aAgent`) against the official `@a2a-js/sdk` server (N-13): as a
 * Plan–Executor executor role, as a workflow node and as a tool; input and auth requests, failed
 * tasks, refused cards and credentials, and a send whose answer is lost (reconciled, X-7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2AAgentCard, A2ACardError, A2ARequestError, a2aAgent } from '../../src/capabilities/a2a/index.js';
import type { ToolResultMessage } from '../../src/core/messages.js';
import { Agent, END, lastValue, RunClient, START, WorkflowBuilder } from '../../src/index.js';
import type { ModelRequest } from '../../src/model/language-model.js';
import { MemoryRunStore } from '../../src/store/memory/memory-run-store.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { type A2ATestServer, startA2ATestServer } from './a2a-test-server.js';

let server: A2ATestServer;
beforeAll(async () => {
  server = await startA2ATestServer();
});
afterAll(async () => {
  await server.close();
});

const results = (request: ModelRequest) =>
  request.messages.filter((message): message is ToolResultMessage => message.role === 'tool');

/** A planner that delegates `task` to `remote` once, then reports what came back. */
function delegatingPlanner(task: string) {
  return new ScriptedModel({
    respond: (request) =>
      results(request).length === 0
        ? { text: 'delegating', toolCalls: [{ name: 'remote', arguments: { task } }] }
        : {
            text: `report: ${results(request)
              .map((message) => message.content)
              .join(' / ')}`,
          },
  });
}

function planExecutor(
  model: ScriptedModel,
  remote = a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Echoes.' }),
) {
  return new Agent({
    name: 'team',
    mode: 'plan-executor',
    model,
    store: new MemoryRunStore(),
    planner: { prompt: 'Plan and delegate.' },
    executors: [remote],
  });
}

function receivedTimes(text: string): number {
  return server.texts.filter((received) => received === text).length;
}

describe('a2aAgent as a Plan–Executor executor role', () => {
  it('delegates a task that the remote agent completes, shown to the planner as a delegation (L-3)', async () => {
    const model = delegatingPlanner('wait:200 summarise the report');
    const result = await planExecutor(model).run({ sessionId: 's', input: 'Go.' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'report: done: summarise the report' });
    expect(model.requests[0]?.tools?.map((definition) => [definition.name, definition.kind])).toEqual([['remote', 'delegation']]);
    expect(receivedTimes('wait:200 summarise the report')).toBe(1);
    const [messageId] = [...server.received].find(([, count]) => count === 1) ?? [];
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a remote INPUT_REQUIRED through onInputRequired and sends the answer on the same task', async () => {
    const questions: string[] = [];
    const remote = a2aAgent({
      cardUrl: server.cardUrl,
      name: 'remote',
      description: 'Asks back.',
      onInputRequired: (request) => {
        questions.push(request.question);
        return 'blue';
      },
    });
    const result = await planExecutor(delegatingPlanner('ask colour'), remote).run({ sessionId: 's', input: 'Go.' }).result();
    expect(questions).toEqual(['which colour?']);
    expect(result).toMatchObject({ status: 'succeeded', output: 'report: answered: blue' });
  });

  /** A planner that delegates each task at once and then reports every result, one per line. */
  function fanOut(tasks: string[]) {
    return new ScriptedModel({
      respond: (request) =>
        results(request).length === 0
          ? { text: 'delegating', toolCalls: tasks.map((task) => ({ name: 'remote', arguments: { task } })) }
          : {
              text: results(request)
                .map((message) => message.content)
                .join('\n'),
            },
    });
  }

  it('turns AUTH_REQUIRED and a failed task into typed failures the planner reads', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model: fanOut(['auth please', 'fail this']),
      store,
      planner: { prompt: 'Plan and delegate.' },
      executors: [a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Echoes.' })],
    });
    const result = await agent.run({ sessionId: 's', input: 'Go.', runId: 'typed-failures' }).result();
    expect(result.status).toBe('succeeded');
    const lines = String(result.output).split('\n');
    expect(lines[0]).toMatch(/^Error \(tool-error\): A2A agent "remote" needs authorization for task .+: sign in first$/);
    expect(lines[1]).toMatch(/^Error \(tool-error\): A2A agent "remote" ended task .+ as TASK_STATE_FAILED: could not this$/);
    const journal = await store.readJournal('typed-failures');
    const codes = journal
      .filter((entry) => entry.type === 'operation-finished')
      .map((entry) => (entry.data as { failure?: { code?: string } }).failure?.code);
    expect(codes).toEqual(['a2a-auth-required', 'a2a-task-failed']);
  });

  it('puts a remote INPUT_REQUIRED to the run as an approval request, answered from another client (K-5)', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model: fanOut(['ask size', 'ask shape']),
      store,
      planner: { prompt: 'Plan and delegate.' },
      executors: [a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Asks back.' })],
      // The wait for a person is not bounded by the 10 s attempt timeout, only by the approval timeout.
      execution: { toolTimeoutMs: 1_000 },
    });
    const client = new RunClient({ store });
    const run = agent.run({ sessionId: 's', input: 'Go.', runId: 'asks' });
    const requests: { approvalId: string; reason: string }[] = [];
    for await (const event of run.events()) {
      if (event.type !== 'approval-request') continue;
      requests.push(event);
      if (event.reason.includes('which size?')) {
        // Longer than the attempt timeout: the call is still waiting, not timed out.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await client.decideApproval('asks', { approvalId: event.approvalId, approved: true, reason: 'large' });
      } else await client.decideApproval('asks', { approvalId: event.approvalId, approved: false, reason: 'not now' });
    }
    const result = await run.result();
    expect(requests.map((request) => request.reason)).toEqual([
      'The remote agent "remote" asks: which size? — approve with your answer as the reason, or deny.',
      'The remote agent "remote" asks: which shape? — approve with your answer as the reason, or deny.',
    ]);
    const lines = String(result.output).split('\n');
    expect(lines[0]).toBe('answered: large');
    expect(lines[1]).toMatch(/^Error \(tool-error\): A2A agent "remote" asks for input on task .+: which shape\?$/);
    expect(receivedTimes('large')).toBe(1);
    const described = await client.describeRun('asks');
    expect(JSON.stringify(described)).toContain('"approved":true');
  });
});

describe('a2aAgent as a workflow node', () => {
  const state = { question: lastValue(z.string()), answer: lastValue(z.string(), { default: '' }) };

  function workflow(store: MemoryRunStore) {
    const remote = a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Echoes.' });
    return new WorkflowBuilder({ name: 'ask-remote', state })
      .addCapabilityNode('remote', remote.tool, { input: { task: 'question' }, output: 'answer' })
      .addEdge(START, 'remote')
      .addEdge('remote', END)
      .compile({ store });
  }

  it('runs the remote task as a capability node and writes its artifact to the state', async () => {
    const result = await workflow(new MemoryRunStore())
      .run({ sessionId: 's', input: { question: 'wait:100 translate' } })
      .result();
    expect(result).toMatchObject({ status: 'succeeded', output: { answer: 'done: translate' } });
    expect(receivedTimes('wait:100 translate')).toBe(1);
  });

  it('pauses the workflow on INPUT_REQUIRED and sends the resume value to the same remote task, once', async () => {
    const store = new MemoryRunStore();
    const paused = await workflow(store)
      .run({ sessionId: 's', runId: 'wf-ask', input: { question: 'ask flavour' } })
      .result();
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts?.[0]?.value).toMatchObject({
      type: 'a2a-input-required',
      agent: 'remote',
      question: 'which flavour?',
    });
    const done = await workflow(store).run({ sessionId: 's', runId: 'wf-ask', resume: 'vanilla' }).result();
    expect(done).toMatchObject({ status: 'succeeded', output: { answer: 'answered: vanilla' } });
    expect(receivedTimes('ask flavour')).toBe(1);
    expect(receivedTimes('vanilla')).toBe(1);
  });
});

describe('a2aAgent as a tool, its errors and its reconciliation', () => {
  const context = (operationId: string) => ({
    runId: 'direct',
    sessionId: 's',
    taskId: 't',
    operationId,
    attempt: 1,
    signal: new AbortController().signal,
  });

  it('refuses a card without a JSON-RPC 1.0 interface instead of falling back (§3.6.3)', async () => {
    const remote = a2aAgent({
      card: {
        name: 'Old agent',
        description: 'Speaks 0.3 only.',
        supportedInterfaces: [{ url: `${server.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
      },
    });
    expect(remote.name).toBe('Old_agent');
    await expect(remote.tool.execute({ task: 'hello' }, context('card'))).rejects.toSatisfy(A2ACardError.isInstance);
  });

  it('sends credentials, and a refused credential is a typed request error that sends nothing', async () => {
    const guarded = await startA2ATestServer({ bearer: 'secret' });
    try {
      const options = { cardUrl: guarded.cardUrl, name: 'guarded', description: 'Needs a token.' };
      const refused = a2aAgent({ ...options, auth: { bearer: 'wrong' } });
      const error = await Promise.resolve(refused.tool.execute({ task: 'hello' }, context('refused'))).catch(
        (caught: unknown) => caught,
      );
      expect(A2ARequestError.isInstance(error) && error.status).toBe(401);
      const accepted = a2aAgent({ ...options, auth: { bearer: 'secret' } });
      await expect(accepted.tool.execute({ task: 'hello' }, context('accepted'))).resolves.toBe('done: hello');
      expect(guarded.texts).toEqual(['hello']);
    } finally {
      await guarded.close();
    }
  });

  it('follows with SubscribeToTask when the agent streams, and polls GetTask when it does not', async () => {
    const served = (await (await fetch(server.cardUrl)).json()) as A2AAgentCard;
    const methodsOf = () => {
      const methods: string[] = [];
      const counting: typeof fetch = (input, init) => {
        const method = /"method":"(\w+)"/.exec(String(init?.body ?? ''))?.[1];
        if (method) methods.push(method);
        return fetch(input, init);
      };
      return { methods, counting };
    };
    const streamed = methodsOf();
    const streaming = a2aAgent({ card: served, name: 'streaming', fetch: streamed.counting });
    await expect(streaming.tool.execute({ task: 'wait:300 streamed' }, context('streamed'))).resolves.toBe('done: streamed');
    expect(streamed.methods).toContain('SubscribeToTask');
    const polled = methodsOf();
    const polling = a2aAgent({
      card: { ...served, capabilities: { streaming: false } },
      name: 'polling',
      pollMs: 50,
      fetch: polled.counting,
    });
    await expect(polling.tool.execute({ task: 'wait:300 polled' }, context('polled'))).resolves.toBe('done: polled');
    expect(polled.methods).not.toContain('SubscribeToTask');
    expect(polled.methods.filter((method) => method === 'GetTask').length).toBeGreaterThan(1);
    expect(polled.methods.filter((method) => method === 'SendMessage')).toHaveLength(1);
  });

  it('reconciles a send whose answer is lost through ListTasks by its context, without sending again (X-7)', async () => {
    const dropping: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(init?.body ?? '').includes('"SendMessage"')) {
        await response.text();
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      }
      return response;
    };
    const remote = a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Echoes.', fetch: dropping });
    await expect(remote.tool.execute({ task: 'wait:100 lost answer' }, context('lost'))).resolves.toBe('done: lost answer');
    expect(receivedTimes('wait:100 lost answer')).toBe(1);
  });

  it('sends afresh on a retry after the agent refused the send (-32603), which had no effect', async () => {
    let refusals = 0;
    const busyOnce: typeof fetch = async (input, init) => {
      if (String(init?.body ?? '').includes('"SendMessage"') && refusals === 0) {
        refusals += 1;
        const busy = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'busy' } };
        return new Response(JSON.stringify(busy), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      return fetch(input, init);
    };
    const remote = a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Echoes.', fetch: busyOnce });
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model: delegatingPlanner('after a refusal'),
      store,
      planner: { prompt: 'Plan and delegate.' },
      executors: [remote],
      execution: { retry: { enabled: true, attempts: 2, waitMs: 10 } },
    });
    const result = await agent.run({ sessionId: 's', runId: 'refused-once', input: 'Go.' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'report: done: after a refusal' });
    expect(refusals).toBe(1);
    expect(receivedTimes('after a refusal')).toBe(1);
    const attempts = (await store.readJournal('refused-once')).filter((entry) => entry.type === 'attempt-started');
    expect(attempts).toHaveLength(2);
  });

  it('records a send it cannot reconcile as unknown, and a retrying run does not send it again', async () => {
    const blind: typeof fetch = async (input, init) => {
      const body = String(init?.body ?? '');
      if (body.includes('"ListTasks"')) throw new TypeError('fetch failed');
      const response = await fetch(input, init);
      if (body.includes('"SendMessage"')) {
        await response.text();
        throw new TypeError('fetch failed');
      }
      return response;
    };
    const remote = a2aAgent({ cardUrl: server.cardUrl, name: 'remote', description: 'Echoes.', fetch: blind });
    const model = delegatingPlanner('unknowable');
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model,
      store: new MemoryRunStore(),
      planner: { prompt: 'Plan and delegate.' },
      executors: [remote],
      execution: { retry: { enabled: true, attempts: 3, waitMs: 10 } },
    });
    const result = await agent.run({ sessionId: 's', input: 'Go.' }).result();
    expect(result.output).toMatch(
      /^report: Error \(unknown-outcome\): A2A agent "remote": whether message .+ was received is unknown/,
    );
    expect(receivedTimes('unknowable')).toBe(1);
  });
});
