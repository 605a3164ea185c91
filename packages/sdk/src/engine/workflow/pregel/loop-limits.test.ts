import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { END, START } from '../channels/channel-names.js';
import { lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import type { WorkflowEvent } from '../workflow-events.js';

function counter(limit: number, onLimit?: 'exit' | 'fail') {
  return new WorkflowBuilder({ name: 'limits', state: { count: lastValue(z.number(), { default: 0 }) } })
    .addNode('work', (state) => ({ count: state.count + 1 }))
    .addEdge(START, 'work')
    .addLoop({
      from: 'work',
      to: 'work',
      exit: END,
      while: (state) => state.count < limit,
      maxIterations: 3,
      ...(onLimit ? { onLimit } : {}),
    })
    .compile();
}

async function outcome(workflow: ReturnType<typeof counter>) {
  const run = workflow.run({ sessionId: 's', input: {} });
  const events: WorkflowEvent[] = [];
  for await (const event of run.events()) events.push(event);
  return { result: await run.result(), limitEvents: events.filter((event) => event.type === 'loop-limit') };
}

describe('loop limits', () => {
  it('say in the result and the events which loop ended by its limit', async () => {
    const { result, limitEvents } = await outcome(counter(10));
    expect(result).toMatchObject({
      status: 'succeeded',
      output: { count: 3 },
      loopLimits: [{ loop: 'work', step: 2, iterations: 3 }],
    });
    expect(limitEvents).toMatchObject([{ type: 'loop-limit', loop: 'work', iterations: 3, taskId: '2/work' }]);
  });

  it('say nothing when the condition ended the loop', async () => {
    const { result, limitEvents } = await outcome(counter(2));
    expect(result.status).toBe('succeeded');
    expect(result.output?.count).toBe(2);
    expect(result.loopLimits).toBeUndefined();
    expect(limitEvents).toEqual([]);
  });

  it('fail the run with loop-limit-reached when onLimit is fail', async () => {
    const { result } = await outcome(counter(10, 'fail'));
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'loop-limit-reached',
      failure: { node: 'work', kind: 'loop-limit-reached' },
    });
  });
});
