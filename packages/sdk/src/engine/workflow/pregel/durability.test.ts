import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countingStore, ExecutionLog, textTool } from '../../../../test/workflow/workflow-fixtures.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { appendList } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import type { Durability } from './workflow-journal.js';

const KILOBYTE = 'x'.repeat(1024);

/** A chain of `length` nodes, each appending 1 KB to `log`. */
function appendChain(length: number, durability: Durability, store = new MemoryRunStore()) {
  const log = new ExecutionLog();
  const append = textTool('append', log);
  const builder = new WorkflowBuilder({ name: 'append-chain', state: { log: appendList(z.string()) } });
  for (let index = 0; index < length; index += 1) {
    builder.addCapabilityNode(`n${index}`, append, { input: { text: { value: KILOBYTE } }, output: 'log' });
    builder.addEdge(index === 0 ? START : `n${index - 1}`, `n${index}`);
  }
  builder.addEdge(`n${length - 1}`, END);
  const counted = countingStore(store);
  return { workflow: builder.compile({ store: counted.store, durability }), appends: counted.appends, store, log };
}

describe('durability modes (N-10)', () => {
  it('give the same result in every mode', async () => {
    const outputs = [];
    for (const durability of ['sync', 'async', 'exit'] as const) {
      const { workflow } = appendChain(5, durability);
      outputs.push(await workflow.run({ sessionId: 's', input: {} }).result());
    }
    expect(outputs.map((result) => result.output?.log?.length)).toEqual([5, 5, 5]);
    expect(outputs[1]?.output).toEqual(outputs[0]?.output);
    expect(outputs[2]?.output).toEqual(outputs[0]?.output);
  });

  it('sync and async save each tool call as noted, then finished, as its own writes; exit saves once at the end', async () => {
    // sync: the last task's record and the run's ending are one commit (the run ends with that task).
    for (const [durability, expected, perTask] of [
      ['sync', 20, ['task-noted', 'task-finished']],
      ['async', 21, ['task-noted', 'task-finished']],
      ['exit', 1, ['task-finished']],
    ] as const) {
      const { workflow, appends, store } = appendChain(10, durability);
      const result = await workflow.run({ sessionId: 's', runId: `chain-${durability}`, input: {} }).result();
      expect(appends).toHaveLength(expected);
      const journal = await store.readJournal(result.runId);
      // The note before each call is durable before the tool runs; `exit` trades it away (N-10).
      expect(journal.map((entry) => entry.type)).toEqual([
        'workflow-started',
        ...Array.from({ length: 10 }, () => perTask).flat(),
        'workflow-finished',
      ]);
    }
  });

  it('sync writes the last task with the ending in one commit, and a task that plans more on its own', async () => {
    const { workflow, appends } = appendChain(3, 'sync');
    await workflow.run({ sessionId: 's', input: {} }).result();
    expect(appends.map((append) => append.entries.map((entry) => entry.type))).toEqual([
      ['task-noted'],
      ['task-finished'],
      ['task-noted'],
      ['task-finished'],
      ['task-noted'],
      ['task-finished', 'workflow-finished'],
    ]);
    expect(appends.at(-1)?.terminal?.status).toBe('succeeded');
  });

  it('store deltas: each superstep adds its own writes, never the whole state again', async () => {
    const { workflow, store } = appendChain(50, 'sync');
    const result = await workflow.run({ sessionId: 's', input: {} }).result();
    const journal = await store.readJournal(result.runId);
    const sizes = journal.map((entry) => JSON.stringify(entry.data).length);
    // 50 KB of state at the end, and about 50 KB stored: every task entry is ~1 KB, the last as the first.
    for (const size of sizes) expect(size).toBeLessThan(1300);
    expect(sizes.reduce((total, size) => total + size, 0)).toBeLessThan(50 * 1024 * 1.25);
    expect(result.output?.log).toHaveLength(50);
  });
});
