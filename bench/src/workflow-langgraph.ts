/**
 * The same benchmark scenarios built with LangGraph.js, the measurement baseline (a dev
 * dependency of this private bench package only; the SDK never imports it). Nodes do the same
 * trivial work as the AgentLoom capability nodes.
 */
import { EventEmitter, setMaxListeners } from 'node:events';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { Annotation, END, Send, START, StateGraph } from '@langchain/langgraph';

/** One way to run a scenario: a checkpointer (or none) and the durability mode. */
export interface LangGraphSetup {
  checkpointer: BaseCheckpointSaver | undefined;
  durability: 'sync' | 'async' | 'exit';
}

/**
 * Runs LangGraph's `invoke` with Node's listener limit lifted for the signals it creates meanwhile.
 * LangGraph races each task of a superstep against one abort signal it creates inside `invoke`,
 * out of reach; a fan-out of 1000 tasks adds 1000 listeners at once, which Node reports as a
 * possible leak. The limit is put back afterwards, so AgentLoom's runs in the same process are
 * held to Node's default (its own signals carry one listener each, see `subscribeToAbort`).
 */
async function withLangGraphSignals<T>(invoke: () => Promise<T>): Promise<T> {
  const limit = EventEmitter.defaultMaxListeners;
  setMaxListeners(0);
  try {
    return await invoke();
  } finally {
    setMaxListeners(limit);
  }
}

const LoopState = Annotation.Root({ count: Annotation<number>() });

/** A two-node loop taken `iterations` times: 2 × iterations node executions. */
export async function langgraphLoop(setup: LangGraphSetup, iterations: number, threadId: string): Promise<number> {
  const graph = new StateGraph(LoopState)
    .addNode('first', (state) => ({ count: state.count + 1 }))
    .addNode('second', (state) => ({ count: state.count + 1 }))
    .addEdge(START, 'first')
    .addEdge('first', 'second')
    .addConditionalEdges('second', (state) => (state.count < 2 * iterations ? 'first' : END), ['first', END])
    .compile(setup.checkpointer ? { checkpointer: setup.checkpointer } : {});
  const result = await withLangGraphSignals(() =>
    graph.invoke(
      { count: 0 },
      { configurable: { thread_id: threadId }, recursionLimit: 2 * iterations + 10, durability: setup.durability },
    ),
  );
  if (result.count !== 2 * iterations) throw new Error(`LangGraph loop counted ${result.count}`);
  return 2 * iterations;
}

const FanOutState = Annotation.Root({
  results: Annotation<string[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
  total: Annotation<number>(),
});

/** A fan-out of `width` sends, then one join: width + 2 node executions. */
export async function langgraphFanOut(setup: LangGraphSetup, width: number, threadId: string): Promise<number> {
  const graph = new StateGraph(FanOutState)
    .addNode('plan', () => ({}))
    .addNode('worker', (state: { text: string }) => ({ results: [state.text] }))
    .addNode('join', (state) => ({ total: state.results.length }))
    .addEdge(START, 'plan')
    .addConditionalEdges(
      'plan',
      () => Array.from({ length: width }, (_, index) => new Send('worker', { text: `item ${index}` })),
      ['worker'],
    )
    .addEdge('worker', 'join')
    .addEdge('join', END)
    .compile(setup.checkpointer ? { checkpointer: setup.checkpointer } : {});
  const result = await withLangGraphSignals(() =>
    graph.invoke({}, { configurable: { thread_id: threadId }, durability: setup.durability }),
  );
  if (result.total !== width) throw new Error(`LangGraph fan-out joined ${result.total}`);
  return width + 2;
}

const ChainState = Annotation.Root({
  log: Annotation<string[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
});

/**
 * A chain of `length` nodes, each appending `payload`. With `crashAt`, that node throws the first
 * time (LangGraph's saved checkpoint then lets `invoke(null)` resume the thread there).
 */
export async function langgraphAppendChain(
  setup: LangGraphSetup,
  length: number,
  payload: string,
  threadId: string,
  crashAt?: number,
): Promise<number> {
  let crashed = false;
  let builder = new StateGraph(ChainState) as unknown as StateGraph<typeof ChainState.spec, unknown, unknown, string>;
  for (let index = 0; index < length; index += 1) {
    builder = builder.addNode(`n${index}`, () => {
      if (index === crashAt && !crashed) {
        crashed = true;
        throw new Error('simulated crash');
      }
      return { log: [payload] };
    }) as typeof builder;
  }
  for (let index = 0; index < length; index += 1) {
    builder = builder.addEdge(index === 0 ? START : `n${index - 1}`, `n${index}`) as typeof builder;
  }
  builder = builder.addEdge(`n${length - 1}`, END) as typeof builder;
  const graph = builder.compile(setup.checkpointer ? { checkpointer: setup.checkpointer } : {});
  const config = { configurable: { thread_id: threadId }, recursionLimit: length + 10, durability: setup.durability };
  let result: { log: string[] };
  try {
    result = (await withLangGraphSignals(() => graph.invoke({}, config))) as { log: string[] };
  } catch (error) {
    if (crashAt === undefined) throw error;
    result = (await withLangGraphSignals(() => graph.invoke(null, config))) as { log: string[] };
  }
  if (result.log.length !== length) throw new Error(`LangGraph chain has ${result.log.length} entries`);
  return length;
}
