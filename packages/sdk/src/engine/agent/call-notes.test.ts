import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { RunClient } from '../../client/run-client.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

/**
 * A tool's call notes in an agent run (`callJournal`, ADR 0023): an `operation-noted` commit
 * durable before `write` resolves, between the attempt's intent and its result, invisible
 * to the model and to the run's events. Continuing a call from its notes after a SIGKILL is
 * `packages/sdk/test/a2a/a2a-crash.int.test.ts`.
 */
describe('call notes of an agent run (X-7)', () => {
  it('are journaled before the tool goes on, between attempt-started and operation-finished', async () => {
    const store = new MemoryRunStore();
    const seen: boolean[] = [];
    const noting = tool({
      name: 'noting',
      description: 'Notes an intent, then acts.',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }, context) => {
        await context.callJournal?.write('intent', { text, attempt: context.attempt });
        const journal = await store.readJournal(context.runId);
        seen.push(journal.some((entry) => entry.type === 'operation-noted'));
        return `acted on ${JSON.stringify(context.callJournal?.read('intent'))}`;
      },
    });
    const model = new ScriptedModel({
      respond: (request) => {
        const result = request.messages.find((message) => message.role === 'tool');
        return result ? { text: `final: ${result.content}` } : { toolCalls: [{ name: 'noting', arguments: { text: 'x' } }] };
      },
    });
    const agent = new Agent({ name: 'noter', mode: 'react', model, prompt: 'Note.', tools: [noting], store });
    const result = await agent.run({ sessionId: 's', runId: 'notes', input: 'Go.' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'final: acted on {"text":"x","attempt":1}' });
    expect(seen).toEqual([true]);
    const types = (await store.readJournal('notes')).map((entry) => entry.type);
    const noted = types.indexOf('operation-noted');
    expect(types.indexOf('attempt-started')).toBeLessThan(noted);
    expect(noted).toBeLessThan(types.indexOf('operation-finished'));
    // The note is no event: readers of the run see the call, not its bookkeeping.
    const events = await new RunClient({ store }).readEvents('notes');
    expect(events.map((event) => event.type)).not.toContain('operation-noted');
    expect(events.filter((event) => event.type === 'tool-call-finish')).toHaveLength(1);
  });
});
