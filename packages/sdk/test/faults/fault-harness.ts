/**
 * Runs many agent runs against a store while a test injects store faults, and counts what the
 * tools really did: each run calls one tool once, and the tool appends the run id to a file the
 * store knows nothing about. A duplicate execution shows as a repeated line, a lost result as a
 * run that did not succeed with the tool's answer.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import { OwnershipLostError, RunOwnedElsewhereError, StoreFailureError } from '../../src/core/errors/index.js';
import { Agent } from '../../src/engine/agent/agent.js';
import type { RunStore } from '../../src/store/run-store.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a fault run found. */
export interface FaultRunReport {
  runs: number;
  /** Run ids whose tool ran more than once. */
  duplicates: string[];
  /** Run ids that did not end `succeeded` with the tool's answer, with what they ended with instead. */
  lost: Array<{ runId: string; outcome: string }>;
  /** Transient store failures the SDK saw (and had to survive): proof that the faults hit. */
  transientFailures: number;
}

/**
 * Wraps a store to count the transient failures its calls throw; every call and every answer
 * passes through unchanged (an observer, not a double).
 */
export function observeTransientFailures(store: RunStore): { store: RunStore; count: () => number } {
  let failures = 0;
  const observed = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const answer = (value as (...parameters: unknown[]) => unknown).apply(target, args);
        if (answer instanceof Promise) {
          return answer.catch((error: unknown) => {
            if (StoreFailureError.isInstance(error) && error.transient) failures += 1;
            throw error;
          });
        }
        return answer;
      };
    },
  });
  return { store: observed, count: () => failures };
}

/** Runs `runs` runs, `concurrency` at a time, each calling the counting tool once. */
export async function runCountedRuns(options: {
  store: RunStore;
  countFile: string;
  runs: number;
  concurrency: number;
  label: string;
  leaseMs?: number;
}): Promise<FaultRunReport> {
  const observed = observeTransientFailures(options.store);
  const count = tool({
    name: 'count',
    description: 'Counts one execution.',
    parameters: z.object({}),
    execute: async (_args, context) => {
      appendFileSync(options.countFile, `${context.runId}\n`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `counted ${context.runId}`;
    },
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      return result ? { text: `done: ${String(result.content)}` } : { toolCalls: [{ name: 'count', arguments: {} }] };
    },
  });
  const agent = new Agent({
    name: 'fault-counter',
    mode: 'react',
    model,
    prompt: 'Count once.',
    tools: [count],
    store: observed.store,
    leaseMs: options.leaseMs ?? 15_000,
  });
  const lost: FaultRunReport['lost'] = [];
  let next = 0;
  const worker = async () => {
    while (next < options.runs) {
      next += 1;
      const runId = `${options.label}-${next}`;
      // A host gives a run whose owner stopped (its lease could not be renewed through the
      // faults, or the store failed while it was taken) to `agent.run` again with the same id, as
      // the platform's dispatcher does (P-11.4); only a run that still has no result then is lost.
      const sessionId = `${options.label}-session-${next}`;
      let outcome = 'not run';
      for (let attempt = 1; attempt <= 6; attempt += 1) {
        try {
          const result = await agent.run({ sessionId, runId, input: 'count' }).result();
          outcome =
            result.status === 'succeeded' && result.output === `done: counted ${runId}`
              ? 'ok'
              : `${result.status} ${result.reason ?? ''} ${result.output ?? ''}`;
          break;
        } catch (error) {
          outcome = `threw ${(error as Error).message}`;
          if (RunOwnedElsewhereError.isInstance(error)) await sleep(Math.max(0, error.leaseExpiresAt - Date.now()) + 50);
          else if (!OwnershipLostError.isInstance(error) && !StoreFailureError.isInstance(error)) break;
        }
      }
      if (outcome !== 'ok') lost.push({ runId, outcome });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const lines = readFileSync(options.countFile, 'utf8').split('\n').filter(Boolean);
  const seen = new Map<string, number>();
  for (const line of lines) seen.set(line, (seen.get(line) ?? 0) + 1);
  const duplicates = [...seen].filter(([, times]) => times > 1).map(([runId]) => runId);
  return { runs: options.runs, duplicates, lost, transientFailures: observed.count() };
}
