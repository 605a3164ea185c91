/**
 * Small shared helpers of the workflow tests: tools that record what they did, and a store that
 * counts its writes.
 */
import { z } from 'zod';
import { type Tool, tool } from '../../src/capabilities/tools/tool.js';
import type { AppendRequest, RunStore } from '../../src/store/run-store.js';

/** A log of tool executions, in the order they started. */
export class ExecutionLog {
  readonly calls: { tool: string; text: string; operationId: string }[] = [];

  /** How many executions `tool` had. */
  count(toolName: string): number {
    return this.calls.filter((call) => call.tool === toolName).length;
  }
}

/**
 * A tool that returns `<prefix><text>` after `delayMs` (which may depend on the text), logging
 * each execution.
 */
export function textTool(
  name: string,
  log: ExecutionLog,
  options: { prefix?: string; delayMs?: (text: string) => number; fail?: (text: string) => boolean } = {},
): Tool<z.ZodObject<{ text: z.ZodString }>> {
  return tool({
    name,
    description: `Test tool ${name}.`,
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }, context) => {
      log.calls.push({ tool: name, text, operationId: context.operationId });
      const delay = options.delayMs?.(text) ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (options.fail?.(text)) throw new Error(`${name} refused ${text}`);
      return `${options.prefix ?? ''}${text}`;
    },
  });
}

/** Wraps a store so that its appends are counted (and optionally refused). */
export function countingStore(
  store: RunStore,
  refuse?: (request: AppendRequest) => boolean,
): { store: RunStore; appends: AppendRequest[] } {
  const appends: AppendRequest[] = [];
  const wrapped: RunStore = Object.create(store) as RunStore;
  wrapped.append = async (request) => {
    if (refuse?.(request)) throw new Error('refused by the test store');
    appends.push(request);
    return store.append(request);
  };
  for (const method of ['acquire', 'renewLease', 'releaseLease', 'getRun', 'readJournal', 'listSessionRuns', 'close'] as const) {
    (wrapped as unknown as Record<string, unknown>)[method] = (store[method] as (...args: unknown[]) => unknown).bind(store);
  }
  return { store: wrapped, appends };
}

/** A promise with its resolver, for steering concurrent tasks from a test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
