import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deferred } from '../../../test/workflow/workflow-fixtures.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import { START } from './channels/channel-names.js';
import { lastValue } from './channels/state-fields.js';
import { WorkflowBuilder } from './graph/workflow-builder.js';

/** Counts the calls each store operation receives. */
function counted(store: RunStore): { store: RunStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const target = store as unknown as Record<string, unknown>;
  for (const name of ['acquire', 'getRun', 'readJournal', 'append'] as const) {
    const operation = (target[name] as (...args: unknown[]) => unknown).bind(store);
    target[name] = (...args: unknown[]) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return operation(...args);
    };
  }
  return { store, calls };
}

function echo(store: RunStore) {
  return new WorkflowBuilder({
    name: 'echo',
    state: { doc: lastValue(z.object({ title: z.string() })), seen: lastValue(z.string()) },
  })
    .addNode('read', (state) => ({ seen: state.doc?.title ?? '' }))
    .addEdge(START, 'read')
    .compile({ store, output: ['doc', 'seen'] });
}

describe('the start of a workflow run', () => {
  it('reads nothing back for a new run: its id is new (no getRun) and acquire created its journal (no readJournal)', async () => {
    const { store, calls } = counted(new MemoryRunStore());
    const result = await echo(store)
      .run({ sessionId: 's', input: { doc: { title: 'first' } } })
      .result();
    expect(result.output).toEqual({ doc: { title: 'first' }, seen: 'first' });
    expect(calls.get('acquire')).toBe(1);
    expect(calls.get('getRun') ?? 0).toBe(0);
    expect(calls.get('readJournal') ?? 0).toBe(0);
  });

  it('looks a run up and reads its journal when the caller names the run', async () => {
    const { store, calls } = counted(new MemoryRunStore());
    await echo(store)
      .run({ sessionId: 's', runId: 'named-run', input: { doc: { title: 'named' } } })
      .result();
    expect(calls.get('getRun')).toBe(1);
    const again = await echo(store).run({ sessionId: 's', runId: 'named-run' }).result();
    expect(again.output).toEqual({ doc: { title: 'named' }, seen: 'named' });
    expect(calls.get('readJournal')).toBe(1);
  });

  it('never shares the caller’s input objects with the run’s state', async () => {
    const started = deferred();
    const proceed = deferred();
    const workflow = new WorkflowBuilder({
      name: 'held',
      state: { doc: lastValue(z.custom<{ title: string }>((value) => typeof value === 'object')), seen: lastValue(z.string()) },
    })
      .addNode('read', async (state) => {
        started.resolve();
        await proceed.promise;
        return { seen: state.doc?.title ?? '' };
      })
      .addEdge(START, 'read')
      .compile({ store: new MemoryRunStore(), output: ['seen'] });
    const doc = { title: 'before' };
    const run = workflow.run({ sessionId: 's', input: { doc } });
    await started.promise;
    doc.title = 'changed by the caller';
    proceed.resolve();
    expect((await run.result()).output).toEqual({ seen: 'before' });
  });
});
