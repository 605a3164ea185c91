import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { send } from '../graph/graph-definition.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { interrupt } from '../pregel/interrupt.js';
import { command } from './function-node.js';

describe('function nodes', () => {
  it('turn the state into a typed update, saved and recovered like any node', async () => {
    const store = new MemoryRunStore();
    const seen: { operationId: string; attempt: number; step: number }[] = [];
    const workflow = new WorkflowBuilder({
      name: 'functions',
      state: { count: lastValue(z.number(), { default: 0 }), log: appendList(z.string()) },
    })
      .addNode('double', (state, context) => {
        seen.push({ operationId: context.operationId, attempt: context.attempt, step: context.step });
        return { count: state.count * 2, log: [`doubled ${state.count}`] };
      })
      .addNode('nothing', () => undefined)
      .addEdge(START, 'double')
      .addEdge('double', 'nothing')
      .addEdge('nothing', END)
      .compile({ store });
    const run = workflow.run({ sessionId: 's', input: { count: 21 } });
    expect(await run.result()).toMatchObject({ status: 'succeeded', output: { count: 42, log: ['doubled 21'] } });
    expect(seen).toEqual([{ operationId: '0/double', attempt: 1, step: 0 }]);
    const finished = (await store.readJournal(run.runId)).filter((entry) => entry.type === 'task-finished');
    expect(finished.map((entry) => entry.taskId)).toEqual(['0/double', '1/nothing']);
  });

  it('fail with a typed invalid-state-update when the update breaks a field schema, and node-error when they throw', async () => {
    const bad = new WorkflowBuilder({ name: 'bad', state: { count: lastValue(z.number()) } })
      .addNode('wrong', () => ({ count: 'many' as unknown as number }))
      .addEdge(START, 'wrong')
      .compile();
    expect(await bad.run({ sessionId: 's', input: {} }).result()).toMatchObject({
      status: 'failed',
      failure: { node: 'wrong', kind: 'invalid-state-update' },
    });
    const throwing = new WorkflowBuilder({ name: 'throwing', state: { count: lastValue(z.number()) } })
      .addNode('boom', () => {
        throw new Error('no');
      })
      .addEdge(START, 'boom')
      .compile();
    expect(await throwing.run({ sessionId: 's', input: {} }).result()).toMatchObject({
      status: 'failed',
      failure: { node: 'boom', kind: 'node-error', failure: { kind: 'tool-error' } },
    });
  });

  it('can pause the run with interrupt() and take the answer on resume', async () => {
    const store = new MemoryRunStore();
    const workflow = new WorkflowBuilder({
      name: 'approve',
      state: { draft: lastValue(z.string()), verdict: lastValue(z.string()) },
    })
      .addNode('approve', (state, context) => ({
        verdict: `${interrupt<string>(context, { draft: state.draft })} ${state.draft}`,
      }))
      .addEdge(START, 'approve')
      .compile({ store });
    const first = await workflow.run({ sessionId: 's', input: { draft: 'hello' } }).result();
    expect(first).toMatchObject({ status: 'interrupted', interrupts: [{ id: '0/approve#0', value: { draft: 'hello' } }] });
    const resumed = await workflow.run({ sessionId: 's', runId: first.runId, resume: 'approved' }).result();
    expect(resumed).toMatchObject({ status: 'succeeded', output: { verdict: 'approved hello' } });
  });
});

describe('commands', () => {
  it('send the run to declared targets and sends with their own payloads', async () => {
    const workflow = new WorkflowBuilder({
      name: 'commands',
      state: { question: lastValue(z.string()), answers: appendList(z.string()), verdict: lastValue(z.string()) },
    })
      .addNode(
        'triage',
        (state) =>
          command({
            update: { verdict: 'triaged' },
            goto: ['expert', send('worker', { part: `${state.question}-1` }), send('worker', { part: `${state.question}-2` })],
          }),
        {
          goto: ['expert', 'worker', END],
        },
      )
      .addNode('expert', (state) => ({ answers: [`expert on ${state.question}`] }))
      .addNode('worker', (_state, context) => ({ answers: [`worker on ${(context.payload as { part: string }).part}`] }))
      .addEdge(START, 'triage')
      .compile();
    const result = await workflow.run({ sessionId: 's', input: { question: 'q' } }).result();
    expect(result).toMatchObject({
      status: 'succeeded',
      output: { verdict: 'triaged', answers: ['expert on q', 'worker on q-1', 'worker on q-2'] },
    });
  });

  it('fail the node when a command names an undeclared target (W-3), and validate declared ones', async () => {
    const workflow = new WorkflowBuilder({ name: 'undeclared', state: { text: lastValue(z.string()) } })
      .addNode('pick', () => command({ goto: 'other' }), { goto: ['done'] })
      .addNode('done', () => ({}))
      .addNode('other', () => ({}))
      .addEdge(START, 'pick')
      .addEdge(START, 'other');
    const result = await workflow.compile().run({ sessionId: 's', input: {} }).result();
    expect(result).toMatchObject({ status: 'failed', failure: { node: 'pick', kind: 'undeclared-route' } });
    const issues = new WorkflowBuilder({ name: 'unknown', state: { text: lastValue(z.string()) } })
      .addNode('pick', () => command({ goto: 'ghost' }), { goto: ['ghost'] })
      .addEdge(START, 'pick')
      .validate();
    expect(issues).toMatchObject([{ code: 'unknown-node', node: 'ghost' }]);
  });
});

describe('nested fan-out', () => {
  it('lets a fan-out after a sent task read that task’s payload, without a scratch state field', async () => {
    const workflow = new WorkflowBuilder({
      name: 'nested',
      state: { topics: lastValue(z.array(z.string())), facts: appendList(z.string()) },
    })
      .addNode('plan', () => ({}))
      .addNode('topic', () => ({}))
      .addNode('fact', (_state, context) => {
        const { topic, index } = context.payload as { topic: string; index: number };
        return { facts: [`${topic}#${index}`] };
      })
      .addNode('report', () => ({}))
      .addEdge(START, 'plan')
      .addFanOut('plan', (state) => (state.topics ?? []).map((topic) => send('topic', { topic })), ['topic'])
      .addFanOut(
        'topic',
        (_state, from) => [0, 1].map((index) => send('fact', { topic: (from.payload as { topic: string }).topic, index })),
        ['fact'],
      )
      .addEdge('fact', 'report')
      .addEdge('report', END)
      .compile();
    const result = await workflow.run({ sessionId: 's', input: { topics: ['tides', 'reefs'] } }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: { facts: ['tides#0', 'tides#1', 'reefs#0', 'reefs#1'] } });
  });
});
