import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../../capabilities/tools/tool.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';

/** A one-node workflow whose tool returns `value` into an untyped field. */
function returning(value: unknown) {
  const store = new MemoryRunStore();
  const give = tool({ name: 'give', description: 'Gives a value.', parameters: z.object({}), execute: () => value });
  const workflow = new WorkflowBuilder({ name: 'give', state: { answer: lastValue(z.unknown()) } })
    .addCapabilityNode('call', give, { output: 'answer' })
    .addEdge(START, 'call')
    .addEdge('call', END)
    .compile({ store });
  return { store, workflow };
}

describe('capability node results', () => {
  it('a tool result JSON cannot hold fails the node invalid-result instead of entering the state mangled', async () => {
    const { store, workflow } = returning(new Map([['a', 1]]));
    const run = workflow.run({ sessionId: 's', input: {} });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed', reason: 'node-failed' });
    const journal = await store.readJournal(run.runId);
    const failed = journal.find((entry) => JSON.stringify(entry.data ?? {}).includes('invalid-result'));
    expect(JSON.stringify(failed?.data)).toMatch(/result is a Map/);
  });

  it('a JSON result enters the state as it is', async () => {
    const { workflow } = returning({ total: 3, items: ['a', null] });
    const result = await workflow.run({ sessionId: 's', input: {} }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: { answer: { total: 3, items: ['a', null] } } });
  });
});
