import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import { Agent } from '../../src/engine/agent/agent.js';
import type { RunStore } from '../../src/store/run-store.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts the reads followers make: `readJournal` and `getRun` calls. */
export function countingReads(store: RunStore): { store: RunStore; reads: () => number } {
  let reads = 0;
  const target = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['readJournal', 'getRun']) {
    const operation = (target[name] as (...args: unknown[]) => unknown).bind(store);
    target[name] = (...args: unknown[]) => {
      reads += 1;
      return operation(...args);
    };
  }
  return { store, reads: () => reads };
}

/** An agent whose one tool call waits until `release()`: its run stays running, with nothing written meanwhile. */
export function waitingAgent(store: RunStore) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered = () => {};
  const inTool = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const hold = tool({
    name: 'hold',
    description: 'Waits.',
    parameters: z.object({}),
    execute: async () => {
      entered();
      await released;
      return 'released';
    },
  });
  const model = new ScriptedModel({
    respond: (request) =>
      request.messages.some((message) => message.role === 'tool') ? { text: 'done' } : { toolCalls: [{ name: 'hold' }] },
  });
  return { agent: new Agent({ name: 'held', mode: 'react', model, prompt: 'p', tools: [hold], store }), release, inTool };
}

/** Waits until the follower's reads stop growing: every follower has read what is there and waits. */
export async function settledReads(reads: () => number): Promise<number> {
  let settled = -1;
  while (settled !== reads()) {
    settled = reads();
    await sleep(200);
  }
  return settled;
}
