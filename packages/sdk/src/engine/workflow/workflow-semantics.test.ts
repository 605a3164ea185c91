import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExecutionLog, textTool } from '../../../test/workflow/workflow-fixtures.js';
import { tool } from '../../capabilities/tools/tool.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { END, START } from './channels/channel-names.js';
import { appendList, lastValue, mergeWith } from './channels/state-fields.js';
import { send } from './graph/graph-definition.js';
import { WorkflowBuilder } from './graph/workflow-builder.js';

const counts = mergeWith(z.record(z.string(), z.number()), {
  initial: () => ({}),
  merge: (current, update) => {
    const next = { ...current };
    for (const [key, value] of Object.entries(update)) next[key] = (next[key] ?? 0) + value;
    return next;
  },
});

describe('reducers under parallel writes', () => {
  it('apply parallel writes in planned order, whatever order the tasks finish in', async () => {
    const outputs: unknown[] = [];
    for (const slowFirst of [true, false, true]) {
      const store = new MemoryRunStore();
      // Five parallel branches; the test makes them finish in reverse planned order, then in planned
      // order: a branch returns only once the branch before it in that order is saved in the journal.
      let runId = '';
      const savedBranches = async () =>
        runId === ''
          ? []
          : (await store.readJournal(runId)).filter((entry) => entry.type === 'task-finished').map((entry) => entry.taskId);
      const work = tool({
        name: 'work',
        description: 'Finishes after the branch before it (in the chosen order) is saved.',
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }) => {
          const index = Number(text);
          const before = slowFirst ? index + 1 : index - 1;
          while (before >= 0 && before <= 4 && !(await savedBranches()).includes(`0/branch${before}`)) {
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          return text;
        },
      });
      const builder = new WorkflowBuilder({
        name: 'parallel-writes',
        // Parallel writers of one single-value field must say which write wins (issue 17).
        state: { items: appendList(z.string()), tally: counts, last: lastValue(z.string(), { onConflict: 'last-write-wins' }) },
      });
      for (const index of [0, 1, 2, 3, 4]) {
        builder.addCapabilityNode(`branch${index}`, work, {
          input: { text: { value: String(index) } },
          output: (result) => ({
            items: [`item-${String(result)}`],
            tally: { [`k${Number(result) % 2}`]: 1 },
            last: String(result),
          }),
        });
        builder.addEdge(START, `branch${index}`);
      }
      const workflow = builder.compile({ store });
      const run = workflow.run({ sessionId: 's', input: {} });
      runId = run.runId;
      const result = await run.result();
      expect(result.status).toBe('succeeded');
      expect(result.output?.items).toEqual(['item-0', 'item-1', 'item-2', 'item-3', 'item-4']);
      expect(result.output?.tally).toEqual({ k0: 3, k1: 2 });
      // Last value (last-write-wins): the write of the task planned last wins, not the one finishing last.
      expect(result.output?.last).toBe('4');
      // The journal holds the finishing order, yet a fold rebuilds the same state.
      const journal = await store.readJournal(run.runId);
      const finishOrder = journal.filter((entry) => entry.type === 'task-finished').map((entry) => entry.taskId);
      expect(finishOrder).toEqual(
        slowFirst
          ? ['0/branch4', '0/branch3', '0/branch2', '0/branch1', '0/branch0']
          : ['0/branch0', '0/branch1', '0/branch2', '0/branch3', '0/branch4'],
      );
      // Asking for the ended run again folds its journal: the same state comes back.
      const folded = await workflow.run({ sessionId: 's', runId: run.runId }).result();
      expect(folded.output).toEqual(result.output);
      outputs.push(result.output);
    }
    expect(outputs[1]).toEqual(outputs[0]);
    expect(outputs[2]).toEqual(outputs[0]);
  });
});

describe('conditional edges', () => {
  function routed(choice: () => string) {
    const log = new ExecutionLog();
    const builder = new WorkflowBuilder({
      name: 'routing',
      state: { question: lastValue(z.string()), answer: lastValue(z.string()) },
    })
      .addCapabilityNode('classify', textTool('classify', log), { input: { text: 'question' } })
      .addCapabilityNode('billing', textTool('billing', log, { prefix: 'billing: ' }), {
        input: { text: 'question' },
        output: 'answer',
      })
      .addCapabilityNode('general', textTool('general', log, { prefix: 'general: ' }), {
        input: { text: 'question' },
        output: 'answer',
      })
      .addCapabilityNode('secret', textTool('secret', log), { input: { text: 'question' }, output: 'answer' })
      .addEdge(START, 'classify')
      .addConditionalEdges('classify', () => choice() as 'billing' | 'general', ['billing', 'general'])
      .addEdge('billing', END)
      .addEdge('general', END)
      .addEdge('secret', END)
      // `secret` is reachable only through a route the model cannot take here.
      .addConditionalEdges('general', () => END, [END]);
    builder.addEdge(START, 'secret');
    return { builder, log };
  }

  it('take only the declared path the route chose', async () => {
    const { builder, log } = routed(() => 'billing');
    const result = await builder
      .compile()
      .run({ sessionId: 's', input: { question: 'refund?' } })
      .result();
    expect(result.status).toBe('succeeded');
    expect(log.count('billing')).toBe(1);
    expect(log.count('general')).toBe(0);
  });

  it('fail the node when a route picks an undeclared path, and never run it', async () => {
    const { builder, log } = routed(() => 'secret');
    const result = await builder
      .compile()
      .run({ sessionId: 's', input: { question: 'leak it' } })
      .result();
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'node-failed',
      failure: { node: 'classify', kind: 'undeclared-route' },
    });
    // `secret` ran once, from its own START edge in superstep 0, and never because of the route.
    expect(log.calls.filter((call) => call.tool === 'secret')).toHaveLength(1);
    expect(log.count('billing') + log.count('general')).toBe(0);
  });
});

describe('bounded loops', () => {
  function loopGraph(keepGoing: (state: { drafts: string[] }) => boolean, maxIterations: number) {
    const log = new ExecutionLog();
    const builder = new WorkflowBuilder({ name: 'loop', state: { drafts: appendList(z.string()), final: lastValue(z.string()) } })
      .addCapabilityNode('write', textTool('write', log), {
        input: (state) => ({ text: `draft-${state.drafts.length + 1}` }),
        output: 'drafts',
      })
      .addCapabilityNode('review', textTool('review', log), { input: { text: { value: 'review' } } })
      .addCapabilityNode('publish', textTool('publish', log), {
        input: (state) => ({ text: state.drafts.at(-1) ?? '' }),
        output: 'final',
      })
      .addEdge(START, 'write')
      .addEdge('write', 'review')
      .addLoop({ from: 'review', to: 'write', exit: 'publish', while: keepGoing, maxIterations })
      .addEdge('publish', END);
    return { builder, log };
  }

  it('stop at their bound even when the condition still holds', async () => {
    const { builder, log } = loopGraph(() => true, 3);
    const result = await builder.compile().run({ sessionId: 's', input: {} }).result();
    expect(result.status).toBe('succeeded');
    expect(log.count('write')).toBe(3);
    expect(log.count('review')).toBe(3);
    expect(log.count('publish')).toBe(1);
    expect(result.output).toMatchObject({ drafts: ['draft-1', 'draft-2', 'draft-3'], final: 'draft-3' });
  });

  it('exit as soon as the condition fails', async () => {
    const { builder, log } = loopGraph((state) => state.drafts.length < 2, 10);
    const result = await builder.compile().run({ sessionId: 's', input: {} }).result();
    expect(result.output).toMatchObject({ final: 'draft-2' });
    expect(log.count('write')).toBe(2);
  });

  it('end the run at the step limit', async () => {
    const { builder } = loopGraph(() => true, 1000);
    const result = await builder.compile({ maxSteps: 10 }).run({ sessionId: 's', input: {} }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'step-limit-exceeded', steps: 10 });
  });
});

describe('joins', () => {
  function branchy(pick: readonly ('fast' | 'slow')[]) {
    const log = new ExecutionLog();
    const builder = new WorkflowBuilder({ name: 'join', state: { trail: appendList(z.string()) } })
      .addCapabilityNode('router', textTool('router', log), { input: { text: { value: 'route' } } })
      .addCapabilityNode('fast', textTool('fast', log), { input: { text: { value: 'fast' } }, output: 'trail' })
      .addCapabilityNode('slow', textTool('slow', log), { input: { text: { value: 'slow-1' } }, output: 'trail' })
      .addCapabilityNode('slower', textTool('slower', log), { input: { text: { value: 'slow-2' } }, output: 'trail' })
      .addCapabilityNode('merge', textTool('merge', log), {
        input: (state) => ({ text: state.trail.join(',') }),
        output: 'trail',
      })
      .addEdge(START, 'router')
      .addConditionalEdges('router', () => pick, ['fast', 'slow'])
      .addEdge('slow', 'slower')
      .addEdge(['fast', 'slower'], 'merge')
      .addEdge('merge', END);
    return { builder, log };
  }

  it('complete after a conditional branch when the untaken branch is skipped (W-8)', async () => {
    const { builder, log } = branchy(['fast']);
    const result = await builder.compile().run({ sessionId: 's', input: {} }).result();
    expect(result.status).toBe('succeeded');
    expect(log.count('slow')).toBe(0);
    expect(log.count('merge')).toBe(1);
    expect(result.output?.trail).toEqual(['fast', 'fast']);
  });

  it('wait for every taken branch, however long', async () => {
    const { builder, log } = branchy(['fast', 'slow']);
    const result = await builder.compile().run({ sessionId: 's', input: {} }).result();
    expect(log.count('merge')).toBe(1);
    expect(result.output?.trail).toEqual(['fast', 'slow-1', 'slow-2', 'fast,slow-1,slow-2']);
  });

  it('join a fan-out of 100 once', async () => {
    const log = new ExecutionLog();
    const result = await new WorkflowBuilder({
      name: 'fan-out',
      state: { results: appendList(z.string()), summary: lastValue(z.string()) },
    })
      .addCapabilityNode('plan', textTool('plan', log), { input: { text: { value: 'plan' } } })
      .addFanOut('plan', () => Array.from({ length: 100 }, (_, index) => send('worker', { text: `w${index}` })), ['worker'])
      .addCapabilityNode('worker', textTool('worker', log, { delayMs: (text) => Number(text.slice(1)) % 7 }), {
        output: 'results',
      })
      .addCapabilityNode('gather', textTool('gather', log), {
        input: (state) => ({ text: String(state.results.length) }),
        output: 'summary',
      })
      .addEdge(START, 'plan')
      .addEdge('worker', 'gather')
      .addEdge('gather', END)
      .compile()
      .run({ sessionId: 's', input: {} })
      .result();
    expect(log.count('worker')).toBe(100);
    expect(log.count('gather')).toBe(1);
    expect(result.output?.summary).toBe('100');
    expect(result.output?.results).toEqual(Array.from({ length: 100 }, (_, index) => `w${index}`));
  });
});
