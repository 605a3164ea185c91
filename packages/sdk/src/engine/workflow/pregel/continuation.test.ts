import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunClient } from '../../../client/run-client.js';
import { InvalidRunRequestError } from '../../../core/errors/index.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import type { RunStore } from '../../../store/run-store.js';
import { ScriptedModel } from '../../../testing/scripted-model.js';
import { Agent } from '../../agent/agent.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { RunNotContinuableError } from '../errors/workflow-errors.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { innerRunIdOf } from '../nodes/agent-node.js';

/**
 * START → a → (b ∥ agent c) → d → e. Every execution is written to `ledger`; `d` fails while
 * `failing.d` is set. The agent node `c` answers in one model call, counted in `modelCalls`.
 */
function pipeline(store: RunStore, failing: { d: boolean }) {
  const ledger: string[] = [];
  let modelCalls = 0;
  const model = new ScriptedModel({
    respond: () => {
      modelCalls += 1;
      return { text: 'summary by c' };
    },
  });
  const agent = new Agent({ name: 'summariser', mode: 'react', model, prompt: 'Summarise.', store, leaseMs: 200 });
  const workflow = new WorkflowBuilder({
    name: 'continue',
    state: {
      topic: lastValue(z.string()),
      notes: appendList(z.string()),
      summary: lastValue(z.string()),
      report: lastValue(z.string()),
    },
  })
    .addNode('a', (state) => {
      ledger.push('a');
      return { notes: [`a:${state.topic}`] };
    })
    .addNode('b', () => {
      ledger.push('b');
      return { notes: ['b'] };
    })
    .addAgentNode('c', agent, { input: 'topic', output: 'summary' })
    .addNode('d', (state) => {
      ledger.push('d');
      if (failing.d) throw new Error('d is broken');
      return { report: `${state.notes.join(',')}|${state.summary}` };
    })
    .addNode('e', (state) => {
      ledger.push('e');
      return { report: `${state.report}!` };
    })
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('a', 'c')
    .addEdge(['b', 'c'], 'd')
    .addEdge('d', 'e')
    .addEdge('e', END)
    .compile({ store });
  return { workflow, ledger, modelCalls: () => modelCalls };
}

describe('continuing a failed run as a new run', () => {
  it('reuses every finished task, runs only what had not finished, and leaves the failed run unchanged', async () => {
    const store = new MemoryRunStore();
    const failing = { d: true };
    const { workflow, ledger, modelCalls } = pipeline(store, failing);
    const first = workflow.run({ sessionId: 's', input: { topic: 'tides' } });
    const failed = await first.result();
    expect(failed).toMatchObject({ status: 'failed', reason: 'node-failed', failure: { node: 'd', taskId: '2/d' } });
    const recordBefore = await store.getRun(first.runId);
    const journalBefore = await store.readJournal(first.runId);

    failing.d = false;
    const second = workflow.run({ sessionId: 's', continueFrom: first.runId });
    const result = await second.result();
    expect(result).toMatchObject({
      status: 'succeeded',
      continues: { runId: first.runId, from: 'failure' },
      output: { report: 'a:tides,b|summary by c!' },
    });
    expect(second.runId).not.toBe(first.runId);
    // The ledger across both runs: each node before the failure ran exactly once, d twice (failed, then continued).
    expect(ledger).toEqual(['a', 'b', 'd', 'd', 'e']);
    expect(modelCalls()).toBe(1);
    // The agent node was read back: its inner run is the first run's, untouched; no inner run of the new run.
    expect(await store.getRun(innerRunIdOf(first.runId, '1/c'))).toMatchObject({ status: 'succeeded', epoch: 1 });
    expect(await store.getRun(innerRunIdOf(second.runId, '1/c'))).toBeUndefined();
    // NOT-6: the failed run stays failed and unchanged.
    expect(await store.getRun(first.runId)).toEqual(recordBefore);
    expect(await store.readJournal(first.runId)).toEqual(journalBefore);
    // The new run records its lineage and the reused writes; it charged none of the reused work.
    const journal = await store.readJournal(second.runId);
    expect((journal[0]?.data as { continues?: unknown } | undefined)?.continues).toEqual({ runId: first.runId, from: 'failure' });
    const reused = journal
      .filter((entry) => (entry.data as { reused?: boolean }).reused)
      .map((entry) => `${entry.type} ${entry.taskId}`);
    expect(reused.sort()).toEqual(['agent-invoked 1/c', 'task-finished 0/a', 'task-finished 1/b', 'task-finished 1/c']);
    expect(failed.loops).toBe(1);
    expect(result.loops).toBe(0);
  });

  it('continues a run a host created, whose journal begins with its request, not with workflow-started', async () => {
    const store = new MemoryRunStore();
    const failing = { d: true };
    const { workflow, ledger } = pipeline(store, failing);
    const { runId } = await new RunClient({ store }).createRun({
      sessionId: 's',
      kind: 'workflow',
      name: 'continue',
      input: { topic: 'rain' },
    });
    expect(await workflow.run({ sessionId: 's', runId }).result()).toMatchObject({ status: 'failed', reason: 'node-failed' });
    expect((await store.readJournal(runId))[0]?.type).toBe('run-requested');

    failing.d = false;
    const continued = await workflow.run({ sessionId: 's', continueFrom: runId }).result();
    expect(continued).toMatchObject({
      status: 'succeeded',
      continues: { runId, from: 'failure' },
      output: { report: 'a:rain,b|summary by c!' },
    });
    expect(ledger).toEqual(['a', 'b', 'd', 'd', 'e']);
  });

  it('is re-entrant with a run id, and refuses another lineage for that id', async () => {
    const store = new MemoryRunStore();
    const failing = { d: true };
    const { workflow, ledger } = pipeline(store, failing);
    const first = workflow.run({ sessionId: 's', input: { topic: 'waves' } });
    await first.result();
    failing.d = false;
    const again = { sessionId: 's', runId: 'continued-1', continueFrom: first.runId };
    const done = await workflow.run(again).result();
    expect(done.status).toBe('succeeded');
    const count = ledger.length;
    // The same call again reports the stored outcome and runs nothing.
    expect(await workflow.run(again).result()).toEqual(done);
    expect(ledger).toHaveLength(count);
    await expect(
      workflow.run({ sessionId: 's', runId: 'continued-1', rerunFrom: { runId: first.runId, node: 'b' } }).result(),
    ).rejects.toSatisfy(InvalidRunRequestError.isInstance);
  });

  it('refuses runs that cannot be continued, with a typed error and nothing created', async () => {
    const store = new MemoryRunStore();
    const { workflow } = pipeline(store, { d: false });
    const ok = workflow.run({ sessionId: 's', input: { topic: 'sand' } });
    expect((await ok.result()).status).toBe('succeeded');
    const refused = workflow.run({ sessionId: 's', runId: 'never', continueFrom: ok.runId });
    await expect(refused.result()).rejects.toSatisfy(RunNotContinuableError.isInstance);
    await expect(workflow.run({ sessionId: 's', continueFrom: 'no-such-run' }).result()).rejects.toSatisfy(
      RunNotContinuableError.isInstance,
    );
    expect(await store.getRun('never')).toBeUndefined();
    expect(() => workflow.run({ sessionId: 's', continueFrom: ok.runId, input: { topic: 'x' } })).toThrow(InvalidRunRequestError);
    // A run of another graph is not continued by this one (B-5).
    const other = new WorkflowBuilder({ name: 'continue', state: { topic: lastValue(z.string()) } })
      .addNode('only', () => ({}))
      .addEdge(START, 'only')
      .compile({ store });
    await expect(other.run({ sessionId: 's', rerunFrom: { runId: ok.runId, node: 'only' } }).result()).rejects.toSatisfy(
      RunNotContinuableError.isInstance,
    );
  });
});

describe('rerunning an ended run from a node', () => {
  it('reuses the writes made before the node and its finished siblings, and runs the node and what follows', async () => {
    const store = new MemoryRunStore();
    const { workflow, ledger, modelCalls } = pipeline(store, { d: false });
    const first = workflow.run({ sessionId: 's', input: { topic: 'reefs' } });
    expect((await first.result()).status).toBe('succeeded');
    expect(ledger).toEqual(['a', 'b', 'd', 'e']);

    const rerun = workflow.run({ sessionId: 's', rerunFrom: { runId: first.runId, node: 'b' } });
    const result = await rerun.result();
    expect(result).toMatchObject({
      status: 'succeeded',
      continues: { runId: first.runId, from: 'node', node: 'b', step: 1 },
      output: { report: 'a:reefs,b|summary by c!' },
    });
    // a (before b) and the agent c (b's sibling, finished) were reused; b, d and e ran again.
    expect(ledger).toEqual(['a', 'b', 'd', 'e', 'b', 'd', 'e']);
    expect(modelCalls()).toBe(1);
    await expect(workflow.run({ sessionId: 's', rerunFrom: { runId: first.runId, node: 'nope' } }).result()).rejects.toSatisfy(
      RunNotContinuableError.isInstance,
    );
    await expect(
      workflow.run({ sessionId: 's', rerunFrom: { runId: first.runId, node: 'b', step: 3 } }).result(),
    ).rejects.toSatisfy(RunNotContinuableError.isInstance);
  });
});
