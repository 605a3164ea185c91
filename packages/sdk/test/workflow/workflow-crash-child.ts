/**
 * Child process of the workflow crash tests. Opens the store named by `WF_STORE` (see
 * `../crash/open-store.ts`), runs or resumes the workflow run `WF_RUN_ID` of scenario
 * `WF_SCENARIO`, and prints `RESULT <json>`. With `WF_FREEZE` set it freezes at that point
 * (printing `FROZEN <point>`) for the parent to SIGKILL it:
 * - `branches-mid-step`: scenario `branches`, once branches a and b are saved while c and d run;
 * - `agent-mid-loop`: scenario `agents`, once the fast agent's node is saved and the slow agent
 *   asks its model for its second loop;
 * - `agent-finished-unsaved`: scenario `agents`, when the workflow is about to save the fast agent
 *   node's result, after the inner run finished.
 * - `retry-waiting`: scenario `retry`, once the second failed attempt of the flaky node is saved
 *   and the run waits before the third;
 * - `continue-third`: scenario `continue`, when node `third` of the continued run executes.
 * - `charge-mid-call`: scenario `unknown`, inside the call of its one tool node (`charge`); with
 *   `WF_RETRY_UNKNOWN` set the node retries an `unknown-outcome` attempt.
 * Scenario `continue` fails node `second` while `WF_FAIL_SECOND` is set; with `WF_CONTINUE_FROM`
 * the run is a new run continuing that failed run (its id is `WF_RUN_ID`).
 * Every tool execution and model call is appended to `WF_EFFECTS` as one line.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { appendList, END, lastValue, START, WorkflowBuilder, type WorkflowEvent } from '../../src/engine/workflow/index.js';
import { Agent, tool } from '../../src/index.js';
import type { ModelRequest } from '../../src/model/language-model.js';
import type { RunStore } from '../../src/store/run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';
import { waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const runId = environment.WF_RUN_ID as string;
const freezeAt = environment.WF_FREEZE ?? '';
/**
 * Long enough that a loaded CI machine (two suites at once) never lets a live child's lease lapse,
 * short enough that the resuming child waits out a killed owner quickly.
 */
const leaseMs = 1_000;
const effect = (line: string) => appendFileSync(environment.WF_EFFECTS as string, `${line}\n`);

function freeze(point: string): void {
  process.stdout.write(`FROZEN ${point}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

/** Resolves when the workflow reports (after saving it, in sync durability) that `node` finished. */
const saved = new Map<string, { promise: Promise<void>; resolve: () => void }>();
function savedSignal(node: string): { promise: Promise<void>; resolve: () => void } {
  let entry = saved.get(node);
  if (!entry) {
    let resolve: () => void = () => {};
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    entry = { promise, resolve };
    saved.set(node, entry);
  }
  return entry;
}

function branchesWorkflow(store: RunStore) {
  const branch = tool({
    name: 'branch',
    description: 'One branch of work.',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }, context) => {
      effect(`tool ${name} ${context.operationId}`);
      if (name === 'c' || name === 'd') {
        if (freezeAt === 'branches-mid-step') {
          await Promise.all([savedSignal('a').promise, savedSignal('b').promise]);
          freeze('c and d running, a and b saved');
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return `${name} done`;
    },
  });
  const builder = new WorkflowBuilder({
    name: 'crash-branches',
    state: { topic: lastValue(z.string()), results: appendList(z.string()) },
  })
    .addCapabilityNode('split', branch, { input: { name: { value: 'split' } } })
    .addEdge(START, 'split');
  // Cut mid-call, a branch's outcome is unknown: these branches are safe to call again.
  const retry = { attempts: 2, waitMs: 10, retryOn: ['unknown-outcome'] as const };
  for (const name of ['a', 'b', 'c', 'd']) {
    builder
      .addCapabilityNode(name, branch, { input: { name: { value: name } }, output: 'results', retry })
      .addEdge('split', name);
  }
  return builder
    .addCapabilityNode('gather', branch, { input: { name: { value: 'gather' } }, output: 'results' })
    .addEdge(['a', 'b', 'c', 'd'], 'gather')
    .addEdge('gather', END)
    .compile({ store, leaseMs });
}

function agentsWorkflow(store: RunStore) {
  const work = tool({
    name: 'work',
    description: 'Does one step of work.',
    parameters: z.object({ agent: z.string(), step: z.number() }),
    execute: ({ agent, step }, context) => {
      effect(`tool ${agent}-${step} ${context.operationId}`);
      return `${agent}-step-${step}`;
    },
  });
  const respond = async (request: ModelRequest): Promise<ScriptedReply> => {
    const agent = request.system.includes('fast') ? 'fast' : 'slow';
    const loop = request.messages.filter((message) => message.role === 'tool').length + 1;
    effect(`model ${agent} loop-${loop}`);
    if (agent === 'slow' && loop === 2 && freezeAt === 'agent-mid-loop') {
      await savedSignal('fast').promise;
      freeze('slow agent asks for loop 2, fast agent saved');
    }
    const loopsNeeded = agent === 'slow' ? 3 : 2;
    if (loop < loopsNeeded) return { toolCalls: [{ name: 'work', arguments: { agent, step: loop } }] };
    const steps = request.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    return { text: `${agent} read ${request.messages[0]?.content}: ${steps.join(', ')}` };
  };
  const agent = (name: string) =>
    new Agent({
      name,
      mode: 'react',
      model: new ScriptedModel({ respond }),
      prompt: `You are the ${name} agent.`,
      tools: [work],
      store,
      leaseMs,
    });
  const lookup = tool({
    name: 'lookup',
    description: 'Looks up documents.',
    parameters: z.object({ query: z.string() }),
    execute: ({ query }, context) => {
      effect(`tool lookup ${context.operationId}`);
      return `documents about ${query}`;
    },
  });
  const save = tool({
    name: 'save',
    description: 'Saves the report.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }, context) => {
      effect(`tool save ${context.operationId}`);
      return `saved ${text.length} characters`;
    },
  });
  return new WorkflowBuilder({
    name: 'crash-agents',
    state: {
      query: lastValue(z.string()),
      documents: lastValue(z.string()),
      summaries: appendList(z.string()),
      receipt: lastValue(z.string()),
    },
  })
    .addCapabilityNode('lookup', lookup, { input: { query: 'query' }, output: 'documents' })
    .addAgentNode('fast', agent('fast'), { input: 'documents', output: 'summaries' })
    .addAgentNode('slow', agent('slow'), { input: 'documents', output: 'summaries' })
    .addCapabilityNode('save', save, { input: (state) => ({ text: state.summaries.join('\n') }), output: 'receipt' })
    .addEdge(START, 'lookup')
    .addEdge('lookup', 'fast')
    .addEdge('lookup', 'slow')
    .addEdge(['fast', 'slow'], 'save')
    .addEdge('save', END)
    .compile({ store, leaseMs });
}

/** Freezes right before the workflow saves the fast agent node's result (R-6: finished, not consumed). */
function freezingBeforeFastSaved(store: RunStore): RunStore {
  const append = store.append.bind(store);
  store.append = (request) => {
    if (request.runId === runId && request.entries.some((entry) => entry.type === 'task-finished' && entry.taskId === '1/fast')) {
      freeze('fast agent finished, its node not saved');
    }
    return append(request);
  };
  return store;
}

/** One node that fails its first two attempts with a connection error (retry policy: 4 attempts). */
function retryWorkflow(store: RunStore) {
  return new WorkflowBuilder({ name: 'crash-retry', state: { text: lastValue(z.string()), answer: lastValue(z.string()) } })
    .addNode(
      'flaky',
      (state, context) => {
        effect(`attempt ${context.attempt} ${context.operationId}`);
        if (context.attempt < 3) throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
        return { answer: `answered ${state.text} on attempt ${context.attempt}` };
      },
      { retry: { attempts: 4, waitMs: 200 } },
    )
    .addEdge(START, 'flaky')
    .addEdge('flaky', END)
    .compile({ store, leaseMs });
}

/** first → second → third → fourth, each appending its name; `second` fails while WF_FAIL_SECOND is set. */
function continueWorkflow(store: RunStore) {
  const step = (name: string) => (_state: unknown, context: { operationId: string; runId: string }) => {
    effect(`node ${name} ${context.operationId}`);
    if (name === 'second' && environment.WF_FAIL_SECOND) throw new Error('second is broken');
    if (name === 'third' && freezeAt === 'continue-third') freeze('third running in the continued run');
    return { trail: [name] };
  };
  const builder = new WorkflowBuilder({
    name: 'crash-continue',
    state: { topic: lastValue(z.string()), trail: appendList(z.string()) },
  });
  const names = ['first', 'second', 'third', 'fourth'];
  names.forEach((name, index) => {
    builder.addNode(name, step(name)).addEdge(index === 0 ? START : (names[index - 1] as string), name);
  });
  return builder.addEdge('fourth', END).compile({ store, leaseMs });
}

/** One tool node whose call the `charge-mid-call` freeze cuts. */
function unknownWorkflow(store: RunStore) {
  const charge = tool({
    name: 'charge',
    description: 'Charges a card.',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }, context) => {
      effect(`tool charge ${context.operationId} attempt-${context.attempt}`);
      if (freezeAt === 'charge-mid-call') freeze('charge called, no outcome saved');
      return `charged ${amount}`;
    },
  });
  const retry = environment.WF_RETRY_UNKNOWN ? { retry: { attempts: 2, waitMs: 10, retryOn: ['unknown-outcome'] as const } } : {};
  return new WorkflowBuilder({ name: 'crash-unknown', state: { amount: lastValue(z.number()), receipt: lastValue(z.string()) } })
    .addCapabilityNode('charge', charge, { input: { amount: 'amount' }, output: 'receipt', ...retry })
    .addEdge(START, 'charge')
    .addEdge('charge', END)
    .compile({ store, leaseMs });
}

const store = await openStore(environment.WF_STORE as string);
if (freezeAt === 'agent-finished-unsaved') freezingBeforeFastSaved(store);
const scenario = environment.WF_SCENARIO;
const workflow =
  scenario === 'branches'
    ? branchesWorkflow(store)
    : scenario === 'retry'
      ? retryWorkflow(store)
      : scenario === 'continue'
        ? continueWorkflow(store)
        : scenario === 'unknown'
          ? unknownWorkflow(store)
          : agentsWorkflow(store);
const inputs: Record<string, unknown> = {
  branches: { topic: 'crash' },
  agents: { query: 'tides' },
  retry: { text: 'hello' },
  continue: { topic: 'hello' },
  unknown: { amount: 42 },
};
const input = inputs[scenario ?? ''] ?? inputs.agents;
const request = environment.WF_CONTINUE_FROM ? { continueFrom: environment.WF_CONTINUE_FROM } : { input };
for (;;) {
  const run = workflow.run({ sessionId: `wf-crash-${runId}`, runId, ...request } as never);
  const watch = (async () => {
    for await (const event of run.events() as AsyncIterable<WorkflowEvent>) {
      if (event.type === 'task-finish' && event.status === 'succeeded') savedSignal(event.node).resolve();
      if (event.type === 'task-retry' && event.attempt === 2 && freezeAt === 'retry-waiting') {
        freeze('second failed attempt saved, waiting to retry');
      }
    }
  })();
  try {
    const result = await run.result();
    await watch;
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
