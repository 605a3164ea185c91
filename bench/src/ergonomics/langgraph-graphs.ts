/**
 * The ergonomics graphs written with LangGraph.js, the baseline. Only the text between a
 * `// graph:<name>` line and the next `// end` line is counted; `ergonomics.ts` runs them too.
 */
import { Annotation, Command, END, interrupt, MemorySaver, Send, START, StateGraph } from '@langchain/langgraph';

export function langgraphChain() {
  // graph:chain
  return new StateGraph(Annotation.Root({ text: Annotation<string>() }))
    .addNode('trim', (s) => ({ text: s.text.trim() }))
    .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
    .addNode('exclaim', (s) => ({ text: `${s.text}!` }))
    .addEdge(START, 'trim')
    .addEdge('trim', 'upper')
    .addEdge('upper', 'exclaim')
    .compile();
  // end
}

export function langgraphLoop() {
  // graph:loop
  return new StateGraph(Annotation.Root({ count: Annotation<number>() }))
    .addNode('step', (s) => ({ count: s.count + 1 }))
    .addEdge(START, 'step')
    .addConditionalEdges('step', (s) => (s.count < 3 ? 'step' : END), ['step', END])
    .compile()
    .withConfig({ recursionLimit: 10 });
  // end
}

export function langgraphNestedFanOut() {
  // graph:nested fan-out
  const State = Annotation.Root({
    topics: Annotation<string[]>(),
    facts: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  return new StateGraph(State)
    .addNode('plan', (s) => new Command({ goto: s.topics.map((topic: string) => new Send('topic', topic)) }), { ends: ['topic'] })
    .addNode('topic', (t: string) => new Command({ goto: [1, 2].map((i) => new Send('fact', `${t}#${i}`)) }), { ends: ['fact'] })
    .addNode('fact', (f: string) => ({ facts: [f] }))
    .addEdge(START, 'plan')
    .compile();
  // end
}

export function langgraphInterrupt() {
  // graph:interrupt
  return new StateGraph(Annotation.Root({ draft: Annotation<string>(), verdict: Annotation<string>() }))
    .addNode('write', (s) => ({ draft: `draft of ${s.draft}` }))
    .addNode('approve', (s) => ({ verdict: interrupt<string, string>(s.draft) }))
    .addEdge(START, 'write')
    .addEdge('write', 'approve')
    .compile({ checkpointer: new MemorySaver() });
  // end
}
