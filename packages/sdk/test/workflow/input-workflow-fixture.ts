/**
 * The workflow of the input node tests (issue 36), as data: an input node asks whether to publish
 * a request (`yes` / `no`), then a capability node records the decision. Shared by the in-process
 * tests and the crash child, so that both processes run the same graph (B-5).
 */
import { z } from 'zod';
import { createWorkflow, tool } from '../../src/index.js';
import type { RunStore } from '../../src/store/run-store.js';

/** The definition; `timeoutMs` gives the input a timeout whose outcome is `no`. */
export function inputWorkflowDefinition(options: { timeoutMs?: number } = {}) {
  return {
    formatVersion: 1,
    kind: 'workflow',
    name: 'publish-with-approval',
    state: {
      request: { reducer: 'last-value', schema: { type: 'string' } },
      decision: { reducer: 'last-value', schema: { type: 'string' } },
      recorded: { reducer: 'last-value', schema: { type: 'string' } },
    },
    nodes: [
      {
        name: 'ask',
        kind: 'input',
        question: 'Publish {{request}}?',
        schema: { type: 'string' },
        choices: ['yes', 'no'],
        output: 'decision',
        ...(options.timeoutMs !== undefined ? { timeout: { afterMs: options.timeoutMs, outcome: 'no' } } : {}),
      },
      { name: 'record', kind: 'capability', tool: 'record', input: { decision: 'decision' }, output: 'recorded' },
    ],
    edges: [
      { from: 'START', to: 'ask' },
      { from: 'ask', to: 'record' },
      { from: 'record', to: 'END' },
    ],
    policy: { leaseMs: 1_000, timeoutMs: 120_000 },
    output: ['decision', 'recorded'],
  };
}

/** The workflow on `store`; `onRecord` sees each execution of the `record` tool. */
export function inputWorkflow(store: RunStore, options: { timeoutMs?: number; onRecord?: (decision: string) => void } = {}) {
  const record = tool({
    name: 'record',
    description: 'Records the decision.',
    parameters: z.object({ decision: z.string() }),
    execute: ({ decision }) => {
      options.onRecord?.(decision);
      return `recorded ${decision}`;
    },
  });
  return createWorkflow(inputWorkflowDefinition(options), { store, tools: [record] });
}
