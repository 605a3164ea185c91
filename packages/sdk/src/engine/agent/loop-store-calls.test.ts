import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

const ping = tool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `pong ${n}`,
});

/** A model that calls `ping` until `loops - 1` results are in, then answers: exactly `loops` loops. */
function looping(loops: number): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const last = request.messages.at(-1);
      const seen = last?.role === 'tool' ? Number(last.content.slice(5)) + 1 : 0;
      return seen >= loops - 1 ? { text: 'done' } : { toolCalls: [{ name: 'ping', arguments: { n: seen } }] };
    },
  });
}

/** Counts the calls each store operation receives. */
function counted(store: RunStore): { store: RunStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const target = store as unknown as Record<string, unknown>;
  for (const name of ['append', 'appendExternal', 'acquire', 'readJournal', 'getRun', 'readSession', 'renewLease'] as const) {
    const operation = (target[name] as (...args: unknown[]) => unknown).bind(store);
    target[name] = (...args: unknown[]) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return operation(...args);
    };
  }
  return { store, calls };
}

async function callsOf(loops: number): Promise<Map<string, number>> {
  const { store, calls } = counted(new MemoryRunStore());
  const agent = new Agent({ name: 'calls', mode: 'react', model: looping(loops), prompt: 'p', tools: [ping], store });
  const result = await agent.run({ sessionId: `s-${loops}`, input: 'go' }).result();
  expect(result.loops).toBe(loops);
  return calls;
}

describe('store calls of a ReAct loop (issue 34, ADR 0024)', () => {
  it('reads no journal per loop: the supplement check rides on the loop-started commit', async () => {
    const short = await callsOf(3);
    const long = await callsOf(13);
    // Ten more loops: ten times the commits of one loop (loop-started, model-responded, the
    // tool's result, batch-joined) and not one more read.
    expect((long.get('append') ?? 0) - (short.get('append') ?? 0)).toBe(40);
    expect(long.get('readJournal') ?? 0).toBe(short.get('readJournal') ?? 0);
    expect(long.get('getRun')).toBe(short.get('getRun'));
  });

  it('starts no loop on a journal that moved: a supplement landing just before is applied and consumed in that loop', async () => {
    const { store } = counted(new MemoryRunStore());
    const model = new ScriptedModel({
      respond: (request) => {
        const texts = request.messages.filter((message) => message.role === 'user').map((message) => message.content);
        const results = request.messages.filter((message) => message.role === 'tool').length;
        return results >= 2 ? { text: texts.join(' + ') } : { toolCalls: [{ name: 'ping', arguments: { n: results } }] };
      },
    });
    const agent = new Agent({ name: 'moved', mode: 'react', model, prompt: 'p', tools: [ping], store });
    let run: ReturnType<typeof agent.run> | undefined;
    let supplied = false;
    const refusals: unknown[] = [];
    const append = store.append.bind(store);
    store.append = async (request) => {
      const started = request.entries.find((entry) => entry.type === 'loop-started')?.data as { loop: number } | undefined;
      // Another machine's supplement lands after the owner's last commit, before its second loop starts.
      if (started?.loop === 2 && !supplied) {
        supplied = true;
        await run?.supplement('late news');
      }
      return append(request).catch((error: unknown) => {
        refusals.push(error);
        throw error;
      });
    };
    run = agent.run({ sessionId: 'moved', input: 'question' });
    const result = await run.result();
    expect(refusals).toEqual([expect.objectContaining({ code: 'journal-moved' })]);
    // The second model call already saw the supplement, and the third loop's answer lists it once.
    expect(model.requests[1]?.messages.some((message) => message.role === 'user' && message.content === 'late news')).toBe(true);
    expect(result.output).toBe('question + late news');
    expect(result.loops).toBe(3);
  });
});
