import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countingStore, deferred, ExecutionLog, textTool } from '../../../test/workflow/workflow-fixtures.js';
import { tool } from '../../capabilities/tools/tool.js';
import { RunClient } from '../../client/run-client.js';
import { RunOwnedElsewhereError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { START } from './channels/channel-names.js';
import { appendList, lastValue } from './channels/state-fields.js';
import { InvalidStateUpdateError } from './errors/workflow-errors.js';
import { WorkflowBuilder } from './graph/workflow-builder.js';

describe('runs', () => {
  it('refuse an input that breaks the state schema before creating anything', async () => {
    const store = new MemoryRunStore();
    const workflow = new WorkflowBuilder({ name: 'typed', state: { count: lastValue(z.number()) } })
      .addCapabilityNode('n', textTool('n', new ExecutionLog()), { input: { text: { value: 'x' } } })
      .addEdge(START, 'n')
      .compile({ store });
    const run = workflow.run({ sessionId: 's', input: { count: 'three' as unknown as number } });
    await expect(run.result()).rejects.toSatisfy(InvalidStateUpdateError.isInstance);
    expect(await store.getRun(run.runId)).toBeUndefined();
  });

  it('fail a node whose update breaks a field, keeping what its siblings saved', async () => {
    const store = new MemoryRunStore();
    const log = new ExecutionLog();
    const bad = tool({ name: 'bad', description: 'Returns a number.', parameters: z.object({}), execute: () => 42 });
    const result = await new WorkflowBuilder({
      name: 'bad-update',
      state: { text: lastValue(z.string()), items: appendList(z.string()) },
    })
      .addCapabilityNode('bad', bad, { output: (value) => ({ text: value as string }) })
      .addCapabilityNode('good', textTool('good', log), { input: { text: { value: 'kept' } }, output: 'items' })
      .addEdge(START, 'bad')
      .addEdge(START, 'good')
      .compile({ store })
      .run({ sessionId: 's', input: {} })
      .result();
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'node-failed',
      failure: { node: 'bad', kind: 'invalid-state-update' },
    });
    const journal = await store.readJournal(result.runId);
    // Each tool call was noted open before it ran; the outcomes are the good one's and the bad one's failure.
    expect(
      journal
        .filter((entry) => entry.type === 'task-noted')
        .map((entry) => entry.taskId)
        .sort(),
    ).toEqual(['0/bad', '0/good']);
    const types = journal.filter((entry) => entry.type !== 'task-noted').map((entry) => `${entry.type}:${entry.taskId ?? ''}`);
    expect(types).toEqual(['workflow-started:', 'task-finished:0/good', 'task-failed:0/bad', 'workflow-finished:']);
  });

  it('return the stored outcome of an ended run without running anything again (R-2)', async () => {
    const { store, appends } = countingStore(new MemoryRunStore());
    const log = new ExecutionLog();
    const workflow = new WorkflowBuilder({ name: 'once', state: { out: lastValue(z.string()) } })
      .addCapabilityNode('n', textTool('n', log), { input: { text: { value: 'x' } }, output: 'out' })
      .addEdge(START, 'n')
      .compile({ store });
    const first = await workflow.run({ sessionId: 's', runId: 'once-1', input: {} }).result();
    const writes = appends.length;
    const again = await workflow.run({ sessionId: 's', runId: 'once-1', input: {} }).result();
    expect(again).toEqual(first);
    expect(log.count('n')).toBe(1);
    expect(appends).toHaveLength(writes);
  });

  it('never starts a second executor while a live owner runs the workflow (R-2)', async () => {
    const gate = deferred();
    const slow = tool({
      name: 'slow',
      description: 'Waits for the test.',
      parameters: z.object({}),
      execute: async () => {
        await gate.promise;
        return 'done';
      },
    });
    const workflow = new WorkflowBuilder({ name: 'owned', state: { out: lastValue(z.string()) } })
      .addCapabilityNode('slow', slow, { output: 'out' })
      .addEdge(START, 'slow')
      .compile({ store: new MemoryRunStore() });
    const first = workflow.run({ sessionId: 's', runId: 'owned-1', input: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(workflow.run({ sessionId: 's', runId: 'owned-1', input: {} }).result()).rejects.toSatisfy(
      RunOwnedElsewhereError.isInstance,
    );
    gate.resolve();
    expect((await first.result()).output).toEqual({ out: 'done' });
  });

  it('on stop, lets tasks in flight settle and keeps their results, then starts nothing new (S-5)', async () => {
    const store = new MemoryRunStore();
    const log = new ExecutionLog();
    const started = deferred();
    const gate = deferred();
    const slow = tool({
      name: 'slow',
      description: 'Waits for the test.',
      parameters: z.object({}),
      execute: async () => {
        started.resolve();
        await gate.promise;
        return 'settled';
      },
    });
    const workflow = new WorkflowBuilder({ name: 'stopped', state: { out: appendList(z.string()) } })
      .addCapabilityNode('slow', slow, { output: 'out' })
      .addCapabilityNode('next', textTool('next', log), { input: { text: { value: 'x' } }, output: 'out' })
      .addEdge(START, 'slow')
      .addEdge('slow', 'next')
      .compile({ store });
    const run = workflow.run({ sessionId: 's', input: {} });
    await started.promise;
    // The handle's stop is durable, like an agent run's (ADR 0020): any process (the next owner
    // after a crash) sees it in the store before the run has settled.
    await run.stop({ reason: 'enough' });
    expect((await new RunClient({ store }).describeRun(run.runId)).stopRequest).toEqual({
      requestedBy: 'run-handle',
      reason: 'enough',
    });
    gate.resolve();
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop', steps: 1 });
    expect(log.count('next')).toBe(0);
    const journal = await store.readJournal(run.runId);
    expect(journal.map((entry) => entry.type)).toEqual([
      'workflow-started',
      'task-noted',
      'stop-requested',
      'task-finished',
      'workflow-finished',
    ]);
  });
});
