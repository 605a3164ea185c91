import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../../capabilities/tools/tool.js';
import { RunClient } from '../../../client/run-client.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../../testing/scripted-model.js';
import { Agent } from '../../agent/agent.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { send } from '../graph/graph-definition.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import type { WorkflowEvent } from '../workflow-events.js';
import { AgentNode } from './agent-node.js';
import type { NodeRetryPolicy } from './node-retry.js';

/** A tool that fails its first `failures` attempts with `error`, logging each attempt. */
function flakyTool(failures: number, error: () => Error) {
  const attempts: { operationId: string; attempt: number }[] = [];
  const flaky = tool({
    name: 'flaky',
    description: 'Fails a few times, then answers.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }, context) => {
      attempts.push({ operationId: context.operationId, attempt: context.attempt });
      if (attempts.length <= failures) throw error();
      return `ok ${text}`;
    },
  });
  return { flaky, attempts };
}

const connectionError = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const businessError = () => new Error('the record is locked');

function oneNode(flaky: ReturnType<typeof flakyTool>['flaky'], retry?: { retry?: NodeRetryPolicy }) {
  const store = new MemoryRunStore();
  const builder = new WorkflowBuilder({ name: 'retry', state: { text: lastValue(z.string()), answer: lastValue(z.string()) } })
    .addCapabilityNode('call', flaky, {
      input: { text: 'text' },
      output: 'answer',
      ...(retry?.retry ? { retry: retry.retry } : {}),
    })
    .addEdge(START, 'call')
    .addEdge('call', END);
  return { store, builder };
}

async function collect(run: { events(): AsyncIterable<WorkflowEvent> }): Promise<WorkflowEvent[]> {
  const events: WorkflowEvent[] = [];
  for await (const event of run.events()) events.push(event);
  return events;
}

describe('node retry policies', () => {
  it('retry a transient failure with the same task id as operationId, saving each failed attempt', async () => {
    const { flaky, attempts } = flakyTool(2, connectionError);
    const { store, builder } = oneNode(flaky, { retry: { attempts: 3, waitMs: 5 } });
    const run = builder.compile({ store }).run({ sessionId: 's', input: { text: 'x' } });
    const events = collect(run);
    const result = await run.result();
    expect(result).toMatchObject({ status: 'succeeded', output: { answer: 'ok x' } });
    expect(attempts).toEqual([
      { operationId: '0/call', attempt: 1 },
      { operationId: '0/call', attempt: 2 },
      { operationId: '0/call', attempt: 3 },
    ]);
    const journal = await store.readJournal(run.runId);
    const failed = journal.filter((entry) => entry.type === 'task-attempt-failed');
    expect(failed.map((entry) => [entry.taskId, (entry.data as { attempt: number }).attempt])).toEqual([
      ['0/call', 1],
      ['0/call', 2],
    ]);
    expect(failed[0]?.data).toMatchObject({ failure: { failure: { kind: 'connection' } } });
    const retries = (await events).filter((event) => event.type === 'task-retry');
    expect(retries.map((event) => (event.type === 'task-retry' ? [event.attempt, event.waitMs] : []))).toEqual([
      [1, 5],
      [2, 5],
    ]);
    // A follower in another process sees the retries too: each failed attempt is a saved fact.
    const read = await new RunClient({ store }).readEvents(run.runId);
    const readRetries = read.flatMap((event) => (event.type === 'task-retry' ? [event] : []));
    expect(readRetries.map((event) => [event.taskId, event.node, event.attempt])).toEqual([
      ['0/call', 'call', 1],
      ['0/call', 'call', 2],
    ]);
    for (const event of readRetries) expect(event.waitMs).toBeLessThanOrEqual(5);
    expect(read.map((event) => event.type)).toEqual([
      'workflow-start',
      'task-retry',
      'task-retry',
      'task-finish',
      'workflow-finish',
    ]);
  });

  it('do not retry a business failure by default, but do when retryOn names its kind', async () => {
    const plain = flakyTool(1, businessError);
    const first = oneNode(plain.flaky, { retry: { attempts: 3, waitMs: 1 } });
    const failed = await first.builder
      .compile({ store: first.store })
      .run({ sessionId: 's', input: { text: 'x' } })
      .result();
    expect(failed).toMatchObject({ status: 'failed', reason: 'node-failed', failure: { kind: 'tool-failed', node: 'call' } });
    expect(plain.attempts).toHaveLength(1);

    const named = flakyTool(1, businessError);
    const second = oneNode(named.flaky, { retry: { attempts: 3, waitMs: 1, retryOn: ['tool-error'] } });
    const result = await second.builder
      .compile({ store: second.store })
      .run({ sessionId: 's', input: { text: 'y' } })
      .result();
    expect(result).toMatchObject({ status: 'succeeded', output: { answer: 'ok y' } });
    expect(named.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
  });

  it('fail the task once its attempts are spent, with the last failure', async () => {
    const { flaky, attempts } = flakyTool(5, connectionError);
    const { store, builder } = oneNode(flaky, { retry: { attempts: 2, waitMs: 1 } });
    const result = await builder
      .compile({ store })
      .run({ sessionId: 's', input: { text: 'x' } })
      .result();
    expect(result).toMatchObject({ status: 'failed', reason: 'node-failed', failure: { kind: 'tool-failed' } });
    expect(attempts).toHaveLength(2);
  });

  it('apply the workflow default to nodes without a policy, and let a node policy replace it', async () => {
    const calls: Record<string, number> = { guarded: 0, defaulted: 0 };
    const failTwice = (name: string) => () => {
      calls[name] = (calls[name] ?? 0) + 1;
      if ((calls[name] ?? 0) <= 2) throw connectionError();
      return {};
    };
    const build = () =>
      new WorkflowBuilder({ name: 'defaults', state: { text: lastValue(z.string()) } })
        .addNode('defaulted', failTwice('defaulted'))
        .addNode('guarded', failTwice('guarded'), { retry: { attempts: 1 } })
        .addEdge(START, 'defaulted')
        .addEdge('defaulted', 'guarded')
        .addEdge('guarded', END);
    const result = await build()
      .compile({ retry: { attempts: 3, waitMs: 1 } })
      .run({ sessionId: 's', input: {} })
      .result();
    // The defaulted node got its three attempts; the guarded one, with its own policy of one attempt, failed at once.
    expect(result).toMatchObject({ status: 'failed', failure: { node: 'guarded', kind: 'node-error' } });
    expect(calls).toEqual({ defaulted: 3, guarded: 1 });
  });

  it('exponential back-off doubles the wait, capped by maxWaitMs', async () => {
    const { flaky } = flakyTool(3, connectionError);
    const { store, builder } = oneNode(flaky, {
      retry: { attempts: 4, waitMs: 2, backoff: 'exponential', maxWaitMs: 6 },
    });
    const run = builder.compile({ store }).run({ sessionId: 's', input: { text: 'x' } });
    const events = collect(run);
    expect((await run.result()).status).toBe('succeeded');
    const waits = (await events).flatMap((event) => (event.type === 'task-retry' ? [event.waitMs] : []));
    expect(waits).toEqual([2, 4, 6]);
  });

  it('refuse a retry policy on an agent node (its agent keeps its own) and a malformed one', () => {
    const agent = new Agent({
      name: 'helper',
      mode: 'react',
      model: new ScriptedModel({ respond: () => ({ text: 'hi' }) }),
      prompt: 'Help.',
    });
    const issues = new WorkflowBuilder({
      name: 'agent-retry',
      state: { question: lastValue(z.string()), answer: lastValue(z.string()) },
    })
      .addNode('helper', new AgentNode(agent, { input: 'question', output: 'answer' }), { retry: { attempts: 2 } })
      .addNode('tidy', () => ({}), { retry: { attempts: 0 } })
      .addEdge(START, 'helper')
      .addEdge('helper', 'tidy')
      .addEdge('tidy', END)
      .validate();
    expect(issues.map((issue) => issue.code)).toEqual(['invalid-retry-policy', 'invalid-retry-policy']);
    expect(issues.map((issue) => (issue.code === 'invalid-retry-policy' ? issue.node : ''))).toEqual(['helper', 'tidy']);
  });
});

describe('many tasks waiting on the run signals', () => {
  it('add no MaxListenersExceededWarning and leave no listener on the caller signal (runs of a fan-out retrying 50 tasks at once)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const attempts = new Map<number, number>();
      const workflow = new WorkflowBuilder({ name: 'wide', state: { done: appendList(z.number()) } })
        .addNode('plan', () => ({}))
        .addFanOut('plan', () => Array.from({ length: 50 }, (_, index) => send('work', index)), ['work'])
        .addNode(
          'work',
          (_state, context) => {
            const index = context.payload as number;
            attempts.set(index, (attempts.get(index) ?? 0) + 1);
            if (context.attempt === 1) throw connectionError();
            return { done: [index] };
          },
          { retry: { attempts: 2, waitMs: 20 } },
        )
        .addEdge(START, 'plan')
        .compile();
      // One caller signal shared by many runs, as a server's shutdown signal would be.
      const caller = new AbortController();
      for (let run = 0; run < 12; run += 1) {
        attempts.clear();
        const result = await workflow.run({ sessionId: `s${run}`, input: {}, signal: caller.signal }).result();
        expect(result.status).toBe('succeeded');
        expect(result.output?.done).toHaveLength(50);
        expect([...attempts.values()].every((count) => count === 2)).toBe(true);
      }
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
