/**
 * The ergonomics graphs written with AgentLoom's lighter graph API (function nodes, commands,
 * `interrupt`). Only the text between a `// graph:<name>` line and the next `// end` line is
 * counted; `ergonomics.ts` runs every graph too, so that what is counted is code that works.
 */
import { appendList, command, END, interrupt, lastValue, START, send, WorkflowBuilder } from '@agentloom/sdk';
import { z } from 'zod';

export function agentloomChain() {
  // graph:chain
  return new WorkflowBuilder({ state: { text: lastValue(z.string(), { default: '' }) } })
    .addNode('trim', (s) => ({ text: s.text.trim() }))
    .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
    .addNode('exclaim', (s) => ({ text: `${s.text}!` }))
    .addEdge(START, 'trim')
    .addEdge('trim', 'upper')
    .addEdge('upper', 'exclaim')
    .compile();
  // end
}

export function agentloomLoop() {
  // graph:loop
  return new WorkflowBuilder({ state: { count: lastValue(z.number(), { default: 0 }) } })
    .addNode('step', (s) => ({ count: s.count + 1 }))
    .addEdge(START, 'step')
    .addLoop({ from: 'step', to: 'step', exit: END, while: (s) => s.count < 3, maxIterations: 10 })
    .compile();
  // end
}

export function agentloomNestedFanOut() {
  // graph:nested fan-out
  return new WorkflowBuilder({
    state: { topics: lastValue(z.array(z.string()), { default: [] }), facts: appendList(z.string()) },
  })
    .addNode('plan', (s) => command({ goto: s.topics.map((topic) => send('topic', topic)) }), { goto: ['topic'] })
    .addNode('topic', (_, c) => command({ goto: [1, 2].map((i) => send('fact', `${c.payload}#${i}`)) }), { goto: ['fact'] })
    .addNode('fact', (_, c) => ({ facts: [`${c.payload}`] }))
    .addEdge(START, 'plan')
    .compile();
  // end
}

export function agentloomInterrupt() {
  // graph:interrupt
  return new WorkflowBuilder({ state: { draft: lastValue(z.string(), { default: '' }), verdict: lastValue(z.string()) } })
    .addNode('write', (s) => ({ draft: `draft of ${s.draft}` }))
    .addNode('approve', (s, c) => ({ verdict: interrupt<string>(c, s.draft) }))
    .addEdge(START, 'write')
    .addEdge('write', 'approve')
    .compile();
  // end
}
