/**
 * The ergonomics comparison of `bench:workflow` (issue 17): the same four graphs — a chain, a
 * bounded loop, a nested fan-out and an interrupt — written with AgentLoom's graph API and with
 * LangGraph.js, counted in non-blank characters (every character but whitespace) of the graph's
 * definition, from the state declaration to `compile()`. Every graph is run on both sides first
 * and must give the same answer, so that the counted code is code that works.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from '@langchain/langgraph';
import { agentloomChain, agentloomInterrupt, agentloomLoop, agentloomNestedFanOut } from './agentloom-graphs.js';
import { langgraphChain, langgraphInterrupt, langgraphLoop, langgraphNestedFanOut } from './langgraph-graphs.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The ratio AgentLoom / LangGraph of non-blank characters the issue asks for at most. */
export const ERGONOMICS_TARGET = 1.2;

/** The non-blank characters of each `// graph:<name>` … `// end` region of a source file. */
export function countGraphs(file: string): Map<string, number> {
  const counts = new Map<string, number>();
  let current: string | undefined;
  for (const line of readFileSync(join(here, file), 'utf8').split('\n')) {
    const start = /^\s*\/\/ graph:(.+)$/.exec(line);
    if (start) {
      current = (start[1] as string).trim();
      counts.set(current, 0);
    } else if (/^\s*\/\/ end\s*$/.test(line)) current = undefined;
    else if (current) counts.set(current, (counts.get(current) ?? 0) + line.replace(/\s/g, '').length);
  }
  return counts;
}

function same(what: string, agentloom: unknown, langgraph: unknown): void {
  if (JSON.stringify(agentloom) !== JSON.stringify(langgraph)) {
    throw new Error(`${what}: AgentLoom gave ${JSON.stringify(agentloom)}, LangGraph ${JSON.stringify(langgraph)}`);
  }
}

/** Runs every graph on both engines and checks that they agree. */
export async function checkGraphsAgree(): Promise<void> {
  const chain = await agentloomChain()
    .run({ sessionId: 'e', input: { text: '  hello ' } })
    .result();
  same('chain', chain.output?.text, (await langgraphChain().invoke({ text: '  hello ' })).text);

  const loop = await agentloomLoop()
    .run({ sessionId: 'e', input: { count: 0 } })
    .result();
  same('loop', loop.output?.count, (await langgraphLoop().invoke({ count: 0 })).count);

  const fan = await agentloomNestedFanOut()
    .run({ sessionId: 'e', input: { topics: ['tides', 'reefs'] } })
    .result();
  same('nested fan-out', fan.output?.facts, (await langgraphNestedFanOut().invoke({ topics: ['tides', 'reefs'] })).facts);

  const workflow = agentloomInterrupt();
  const paused = await workflow.run({ sessionId: 'e', input: { draft: 'notes' } }).result();
  const approved = await workflow.run({ sessionId: 'e', runId: paused.runId, resume: 'yes' }).result();
  const graph = langgraphInterrupt();
  const config = { configurable: { thread_id: 'e' } };
  const waiting = await graph.invoke({ draft: 'notes' }, config);
  const done = await graph.invoke(new Command({ resume: 'yes' }), config);
  same(
    'interrupt (asked)',
    paused.interrupts?.[0]?.value,
    (waiting as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0]?.value,
  );
  same('interrupt (answered)', approved.output?.verdict, done.verdict);
}

/** One row per graph: the characters on each side and their ratio. */
export function ergonomicsRows(): { graph: string; agentloom: number; langgraph: number; ratio: number }[] {
  const ours = countGraphs('agentloom-graphs.ts');
  const theirs = countGraphs('langgraph-graphs.ts');
  return [...ours].map(([graph, agentloom]) => {
    const langgraph = theirs.get(graph) ?? Number.NaN;
    return { graph, agentloom, langgraph, ratio: agentloom / langgraph };
  });
}

/** Prints the ergonomics table; returns whether every graph met the target. */
export async function printErgonomics(): Promise<boolean> {
  await checkGraphsAgree();
  const rows = ergonomicsRows();
  console.log('\ngraph API ergonomics: non-blank characters of the same graph (src/ergonomics/), both run and agreeing\n');
  console.log(
    `${'graph'.padEnd(18)}${'AgentLoom'.padStart(11)}${'LangGraph'.padStart(11)}${'ratio'.padStart(8)}${'target'.padStart(8)}  met`,
  );
  let allMet = true;
  for (const row of rows) {
    const met = row.ratio <= ERGONOMICS_TARGET;
    allMet &&= met;
    console.log(
      `${row.graph.padEnd(18)}${String(row.agentloom).padStart(11)}${String(row.langgraph).padStart(11)}${row.ratio.toFixed(2).padStart(8)}${`≤${ERGONOMICS_TARGET}`.padStart(8)}  ${met ? 'yes' : 'NO'}`,
    );
  }
  return allMet;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await printErgonomics();
