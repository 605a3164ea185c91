import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../../capabilities/tools/tool.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';

const echo = tool({
  name: 'echo',
  description: 'Returns its text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('conflicting writes of a single-value field', () => {
  it('are a validation issue when two parallel writers are visible in the graph, whatever their order', () => {
    for (const order of [
      ['left', 'right'],
      ['right', 'left'],
    ]) {
      const builder = new WorkflowBuilder({ name: 'visible', state: { answer: lastValue(z.string()) } });
      for (const name of order) {
        builder.addCapabilityNode(name, echo, { input: { text: { value: name } }, output: 'answer' }).addEdge(START, name);
      }
      const issues = builder.validate();
      expect(issues).toMatchObject([{ code: 'conflicting-writes', field: 'answer', nodes: order }]);
    }
  });

  it('fail the run with a typed write-conflict when only the run shows them, and apply nothing of that superstep', async () => {
    const store = new MemoryRunStore();
    const workflow = new WorkflowBuilder({
      name: 'hidden',
      state: { answer: lastValue(z.string()), after: lastValue(z.string()) },
    })
      .addNode('left', () => ({ answer: 'left' }))
      .addNode('right', () => ({ answer: 'right' }))
      .addNode('after', () => ({ after: 'ran' }))
      .addEdge(START, 'left')
      .addEdge(START, 'right')
      .addEdge(['left', 'right'], 'after')
      .addEdge('after', END)
      .compile({ store });
    expect(workflow).toBeDefined();
    const run = workflow.run({ sessionId: 's', input: {} });
    const result = await run.result();
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'write-conflict',
      failure: { kind: 'write-conflict', node: 'right', taskId: '0/right' },
    });
    expect(result.output).toBeUndefined();
    expect((await store.readJournal(run.runId)).some((entry) => entry.taskId === '1/after')).toBe(false);
    expect(await store.getRun(run.runId)).toMatchObject({ status: 'failed', result: { reason: 'write-conflict' } });
  });

  it('keep the write of the task planned last when the field says onConflict: last-write-wins', async () => {
    const builder = new WorkflowBuilder({
      name: 'chosen',
      state: { answer: lastValue(z.string(), { onConflict: 'last-write-wins' }) },
    });
    for (const name of ['left', 'right']) {
      builder.addCapabilityNode(name, echo, { input: { text: { value: name } }, output: 'answer' }).addEdge(START, name);
    }
    expect(builder.validate()).toEqual([]);
    expect(await builder.compile().run({ sessionId: 's', input: {} }).result()).toMatchObject({
      status: 'succeeded',
      output: { answer: 'right' },
    });
  });
});
