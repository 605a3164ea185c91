/**
 * The benchmark scenarios built with AgentLoom's workflow engine: capability nodes whose tools do
 * trivial work, so that the figures are the engine's own cost per node execution.
 */
import {
  appendList,
  type Durability,
  END,
  lastValue,
  type RunStore,
  START,
  send,
  tool,
  WorkflowBuilder,
  type WorkflowResult,
} from '@agentloom/sdk';
import { z } from 'zod';

/** One way to run a scenario: the store and the durability mode. */
export interface AgentLoomSetup {
  store: RunStore;
  durability: Durability;
}

const increment = tool({
  name: 'increment',
  description: 'Adds one.',
  parameters: z.object({ count: z.number() }),
  execute: ({ count }) => count + 1,
});

const identity = tool({
  name: 'identity',
  description: 'Returns its text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

function check<State>(result: WorkflowResult<State>, what: string): WorkflowResult<State> {
  if (result.status !== 'succeeded') throw new Error(`${what} did not succeed: ${JSON.stringify(result)}`);
  return result;
}

/** A two-node loop taken `iterations` times: 2 × iterations node executions. */
export async function agentloomLoop(setup: AgentLoomSetup, iterations: number, runId: string): Promise<number> {
  const workflow = new WorkflowBuilder({ name: 'bench-loop', state: { count: lastValue(z.number(), { default: 0 }) } })
    .addCapabilityNode('first', increment, { input: { count: 'count' }, output: 'count' })
    .addCapabilityNode('second', increment, { input: { count: 'count' }, output: 'count' })
    .addEdge(START, 'first')
    .addEdge('first', 'second')
    .addLoop({ from: 'second', to: 'first', exit: END, while: () => true, maxIterations: iterations })
    .compile({ store: setup.store, durability: setup.durability, maxSteps: 2 * iterations + 10 });
  const result = check(await workflow.run({ sessionId: 'bench', runId, input: { count: 0 } }).result(), 'loop');
  if (result.output?.count !== 2 * iterations) throw new Error(`loop counted ${result.output?.count}`);
  return 2 * iterations;
}

/** A fan-out of `width` sends, then one join: width + 2 node executions. */
export async function agentloomFanOut(setup: AgentLoomSetup, width: number, runId: string): Promise<number> {
  const workflow = new WorkflowBuilder({
    name: 'bench-fan-out',
    state: { results: appendList(z.string()), total: lastValue(z.number()) },
  })
    .addCapabilityNode('plan', identity, { input: { text: { value: 'plan' } } })
    .addFanOut('plan', () => Array.from({ length: width }, (_, index) => send('worker', { text: `item ${index}` })), ['worker'])
    .addCapabilityNode('worker', identity, { output: 'results' })
    .addCapabilityNode('join', increment, { input: (state) => ({ count: state.results.length - 1 }), output: 'total' })
    .addEdge(START, 'plan')
    .addEdge('worker', 'join')
    .addEdge('join', END)
    .compile({ store: setup.store, durability: setup.durability });
  const result = check(await workflow.run({ sessionId: 'bench', runId, input: {} }).result(), 'fan-out');
  if (result.output?.total !== width) throw new Error(`fan-out joined ${result.output?.total}`);
  return width + 2;
}

/** A chain of `length` nodes, each appending `payload` to one state field: `length` node executions. */
export async function agentloomAppendChain(
  setup: AgentLoomSetup,
  length: number,
  payload: string,
  runId: string,
): Promise<number> {
  const append = tool({
    name: 'append',
    description: 'Returns the payload.',
    parameters: z.object({ index: z.number() }),
    execute: () => payload,
  });
  const builder = new WorkflowBuilder({ name: 'bench-append-chain', state: { log: appendList(z.string()) } });
  for (let index = 0; index < length; index += 1) {
    builder.addCapabilityNode(`n${index}`, append, { input: { index: { value: index } }, output: 'log' });
    builder.addEdge(index === 0 ? START : `n${index - 1}`, `n${index}`);
  }
  builder.addEdge(`n${length - 1}`, END);
  const workflow = builder.compile({ store: setup.store, durability: setup.durability, maxSteps: length + 10 });
  let result: WorkflowResult<{ log: string[] }>;
  try {
    result = await workflow.run({ sessionId: 'bench', runId, input: {} }).result();
  } catch {
    // The store "crashed" (see `crashingAt`): resume the same run id, as a new process would.
    result = await workflow.run({ sessionId: 'bench', runId }).result();
  }
  check(result, 'append chain');
  if (result.output?.log?.length !== length) throw new Error('append chain lost writes');
  return length;
}

/**
 * Wraps a store so that the write saving the task `taskId` of run `runId` fails once, the way a
 * process dying right there loses it: the run stops, its lease is given up, and a resume goes on
 * from the journal (that task runs again).
 */
export function crashingAt(store: RunStore, runId: string, taskId: string): RunStore {
  let crashed = false;
  const append = store.append.bind(store);
  const wrapped = Object.create(store) as RunStore;
  wrapped.append = (request) => {
    if (!crashed && request.runId === runId && request.entries.some((entry) => entry.taskId === taskId)) {
      crashed = true;
      return Promise.reject(new Error('simulated crash'));
    }
    return append(request);
  };
  return wrapped;
}
