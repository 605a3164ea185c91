import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunOwnedElsewhereError } from '../../../core/errors/index.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import type { AppendRequest, RunStore } from '../../../store/run-store.js';
import { ScriptedModel } from '../../../testing/scripted-model.js';
import { Agent } from '../../agent/agent.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { innerRunIdOf } from '../nodes/agent-node.js';

const never = <T>() => new Promise<T>(() => {});

/**
 * A store whose process "freezes" (as if it died) right after `freezeAfter` landed: that append and
 * every later write or lease renewal through it never answer, so its lease runs out and another
 * process takes the run over.
 */
function freezingStore(store: RunStore, freezeAfter: (request: AppendRequest) => boolean): RunStore {
  let frozen = false;
  const wrapped: RunStore = Object.create(store) as RunStore;
  wrapped.append = async (request) => {
    if (frozen) return never();
    const result = await store.append(request);
    if (!freezeAfter(request)) return result;
    frozen = true;
    return never();
  };
  wrapped.renewLease = (...args) => (frozen ? never() : store.renewLease(...args));
  wrapped.releaseLease = (...args) => (frozen ? never() : store.releaseLease(...args));
  for (const method of ['acquire', 'getRun', 'readJournal', 'listSessionRuns', 'close'] as const) {
    (wrapped as unknown as Record<string, unknown>)[method] = (store[method] as (...args: unknown[]) => unknown).bind(store);
  }
  return wrapped;
}

/** Two agent nodes in one superstep, run one at a time, sharing the workflow's 40 loops (W-6). */
function budgetWorkflow(store: RunStore) {
  const agent = (name: string) =>
    new Agent({
      name,
      mode: 'react',
      model: new ScriptedModel({ respond: () => ({ text: `${name} done` }) }),
      prompt: `You are ${name}.`,
      store,
      leaseMs: 200,
    });
  return new WorkflowBuilder({ name: 'budget', state: { topic: lastValue(z.string()), notes: appendList(z.string()) } })
    .addAgentNode('left', agent('left'), { input: 'topic', output: 'notes' })
    .addAgentNode('right', agent('right'), { input: 'topic', output: 'notes' })
    .addEdge(START, 'left')
    .addEdge(START, 'right')
    .addEdge('left', END)
    .addEdge('right', END)
    .compile({ store, maxLoops: 40, maxConcurrency: 1, leaseMs: 200, timeoutMs: 60_000 });
}

const maxLoopsOf = async (store: RunStore, runId: string) => {
  const started = (await store.readJournal(runId)).find((entry) => entry.type === 'run-started');
  return (started?.data as { execution: { maxLoops: number } } | undefined)?.execution.maxLoops;
};

describe('the loop budget of parallel agent nodes across a takeover (W-6, R-6)', () => {
  it('a sibling invoked by the next owner gets the share the first owner gave, not one from what was spent since', async () => {
    const store = new MemoryRunStore();
    const runId = 'budget-1';
    // The first owner "dies" right after saving the left node's end, before invoking the right one.
    const frozen = freezingStore(
      store,
      (request) => request.runId === runId && request.entries.some((entry) => entry.type === 'task-finished'),
    );
    void budgetWorkflow(frozen).run({ sessionId: 's', runId, input: { topic: 'pumps' } });
    for (;;) {
      const journal = await store.readJournal(runId).catch(() => []);
      if (journal.some((entry) => entry.type === 'task-finished')) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const before = await store.readJournal(runId);
    expect(before.filter((entry) => entry.type === 'agent-invoked').map((entry) => entry.data)).toEqual([
      { step: 0, runId: innerRunIdOf(runId, '0/left'), sessionId: innerRunIdOf(runId, '0/left'), loopBudget: 20 },
    ]);

    // The next owner comes once the frozen owner's lease has run out, as a host retries.
    const taker = budgetWorkflow(store);
    let result: Awaited<ReturnType<ReturnType<typeof taker.run>['result']>>;
    for (;;) {
      try {
        result = await taker.run({ sessionId: 's', runId }).result();
        break;
      } catch (error) {
        if (!RunOwnedElsewhereError.isInstance(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.max(10, error.leaseExpiresAt - Date.now() + 10)));
      }
    }
    expect(result).toMatchObject({ status: 'succeeded', output: { notes: ['left done', 'right done'] } });
    expect(await maxLoopsOf(store, innerRunIdOf(runId, '0/left'))).toBe(20);
    // Not 39 (40 less the left node's loop): the same share as if no one had died.
    expect(await maxLoopsOf(store, innerRunIdOf(runId, '0/right'))).toBe(20);
  });
});
