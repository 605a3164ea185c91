import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../../capabilities/tools/tool.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { interrupt } from './interrupt.js';

/**
 * A capability node's call notes (`callJournal`, ADR 0023): durable before `write` resolves in
 * every durability mode (N-10) — `exit` included, which otherwise writes once at the end — and read
 * again by the task's next execution (after a pause here; after a crash in
 * `packages/sdk/test/a2a/a2a-crash.int.test.ts`, X-7).
 */
describe('call notes of a workflow task (X-7, N-10)', () => {
  for (const durability of ['sync', 'async', 'exit'] as const) {
    it(`are in the store before the tool goes on (${durability})`, async () => {
      const store = new MemoryRunStore();
      const executions: { durable: boolean; before: unknown }[] = [];
      const noting = tool({
        name: 'noting',
        description: 'Notes its intent, then pauses once.',
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }, context) => {
          const before = context.callJournal?.read('intent');
          if (before === undefined) await context.callJournal?.write('intent', { text });
          const journal = await store.readJournal(context.runId);
          executions.push({
            durable: journal.some((entry) => entry.type === 'task-noted' && (entry.data as { key: string }).key === 'intent'),
            before,
          });
          return `${text}:${interrupt<string>(context, 'continue?')}`;
        },
      });
      const build = () =>
        new WorkflowBuilder({
          name: 'notes',
          state: { text: lastValue(z.string()), out: lastValue(z.string(), { default: '' }) },
        })
          .addCapabilityNode('noting', noting, { input: { text: 'text' }, output: 'out' })
          .addEdge(START, 'noting')
          .addEdge('noting', END)
          .compile({ store, durability });
      const paused = await build()
        .run({ sessionId: 's', runId: `notes-${durability}`, input: { text: 'a' } })
        .result();
      expect(paused.status).toBe('interrupted');
      const done = await build()
        .run({ sessionId: 's', runId: `notes-${durability}`, resume: 'yes' })
        .result();
      expect(done).toMatchObject({ status: 'succeeded', output: { out: 'a:yes' } });
      // The second execution read the note of the first and did not write it again.
      expect(executions).toEqual([
        { durable: true, before: undefined },
        { durable: true, before: { text: 'a' } },
      ]);
      const notes = (await store.readJournal(`notes-${durability}`)).filter(
        (entry) => entry.type === 'task-noted' && (entry.data as { key: string }).key === 'intent',
      );
      expect(notes).toHaveLength(1);
    });
  }
});
