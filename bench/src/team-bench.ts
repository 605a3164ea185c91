/**
 * `bench:team` (issue 31): the same two teams — a 20-turn group chat whose speaker a selector
 * model picks, and a handoff chain of five members — run with AgentLoom, with LangGraph.js
 * (`@langchain/langgraph-supervisor`, `@langchain/langgraph-swarm`) and with OpenAI Agents
 * (`@openai/agents-core`), all on the same scripted answers (`team-script.ts`, one instant fake
 * model per framework, `team-models.ts`).
 *
 * - Per-turn overhead = (wall time of one team run − time spent inside the fake models) / member
 *   turns; the same for the process's CPU time. Each team is built once per store; the measured
 *   time is the run (`team.run`, `app.invoke`, `run(agent)`). Warm-ups (`BENCH_WARMUP`, default 3),
 *   then `BENCH_REPEATS` (default 15) rounds, every contestant once per round; medians.
 * - Stored bytes = the payload the framework persisted for one run (see `workflow-stores.ts`; for
 *   OpenAI Agents, which has no checkpointer, the JSON of its `MemorySession`'s items).
 * - Code = non-blank, non-comment lines of each framework's program in `team-peers/`: the very
 *   programs this bench runs, whose conversations are checked to be the same first.
 *
 * - Every framework runs as it is published, compiled JavaScript: the script builds the SDK first
 *   and runs without the `@agentloom/source` condition. Run from its TypeScript source through tsx,
 *   AgentLoom paid for tsx's transpilation options (esbuild's `keepNames` wraps every closure it
 *   creates in a `__name(…)` call, per task and per model call) that no peer's code pays.
 *
 * Targets: AgentLoom's per-turn overhead ≤ 1/5 of the best peer's; its code no longer than the shortest.
 * The group chat also runs with its selector's choice saved with the turn (`saveChoice: 'with-turn'`),
 * a non-default option: those rows are shown for what the option gives and judge no target.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTracingDisabled } from '@openai/agents-core';
import {
  agentloomContestant,
  type Contestant,
  type Framework,
  langgraphContestant,
  openaiContestant,
  type Scenario,
} from './team-contestants.js';
import { CHAIN_ANSWER, CHAIN_MEMBERS, CHAT_TURNS, expectedChat, TeamScript } from './team-script.js';
import { openStores, postgresAvailable, type StoreKind, type StorePair } from './workflow-stores.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
/** Tracing would print every span (no exporter is configured): the peer runs without it, as AgentLoom does. */
setTracingDisabled(true);

const here = dirname(fileURLToPath(import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'agentloom-team-bench-'));

const SCENARIOS: readonly { name: Scenario; turns: number; expected: () => string[]; program: string }[] = [
  { name: 'group chat', turns: CHAT_TURNS, expected: expectedChat, program: 'group-chat' },
  { name: 'handoff chain', turns: CHAIN_MEMBERS.length, expected: () => [CHAIN_ANSWER], program: 'handoff-chain' },
];

interface Row {
  scenario: Scenario;
  framework: Framework;
  store: string;
  /** A non-default option of the contestant (informative rows: no target is judged on them). */
  variant?: string;
  /** Median per-turn overhead, wall and CPU (µs). */
  wall: number;
  cpu: number;
  /** Median model time of one run (µs), taken out of both. */
  model: number;
  bytes: number;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

let counter = 0;

/** Runs every contestant of `scenario` round after round; returns one row each. */
async function measure(scenario: (typeof SCENARIOS)[number], kinds: readonly StoreKind[]): Promise<Row[]> {
  const pairs: StorePair[] = [];
  const entries: { contestant: Contestant; script: TeamScript; wall: number[]; cpu: number[]; model: number[]; last?: string }[] =
    [];
  const add = (make: (script: TeamScript) => Contestant) => {
    const script = new TeamScript();
    entries.push({ contestant: make(script), script, wall: [], cpu: [], model: [] });
  };
  for (const kind of kinds) {
    const stores = await openStores(kind, directory);
    pairs.push(stores);
    add((script) => agentloomContestant(scenario.name, script, stores, kind));
    if (scenario.name === 'group chat') add((script) => agentloomContestant(scenario.name, script, stores, kind, true));
    add((script) => langgraphContestant(scenario.name, script, stores, kind));
  }
  add((script) => openaiContestant(scenario.name, script));
  const expected = JSON.stringify(scenario.expected());
  const outcomes = new Map<(typeof entries)[number], { bytes(): Promise<number> }>();
  try {
    for (let round = 0; round < WARMUP + REPEATS; round += 1) {
      for (const entry of entries) {
        counter += 1;
        const id = `team-bench-${counter}`;
        entry.script.reset();
        const cpuStart = process.cpuUsage();
        const started = performance.now();
        const outcome = await entry.contestant.run(id);
        const wallMs = performance.now() - started;
        const cpu = process.cpuUsage(cpuStart);
        if (JSON.stringify(outcome.texts) !== expected) {
          throw new Error(
            `${entry.contestant.framework} (${entry.contestant.store}) ${scenario.name}: the conversation differs from the script: ${JSON.stringify(outcome.texts).slice(0, 300)}`,
          );
        }
        outcomes.set(entry, outcome);
        if (round < WARMUP) continue;
        const modelMs = entry.script.modelMs;
        entry.model.push(modelMs * 1000);
        entry.wall.push(((wallMs - modelMs) * 1000) / scenario.turns);
        entry.cpu.push((cpu.user + cpu.system - modelMs * 1000) / scenario.turns);
      }
    }
    const rows: Row[] = [];
    for (const entry of entries) {
      rows.push({
        scenario: scenario.name,
        framework: entry.contestant.framework,
        store: entry.contestant.store,
        ...(entry.contestant.variant ? { variant: entry.contestant.variant } : {}),
        wall: median(entry.wall),
        cpu: median(entry.cpu),
        model: median(entry.model),
        bytes: await (outcomes.get(entry) as { bytes(): Promise<number> }).bytes(),
      });
    }
    return rows;
  } finally {
    for (const pair of pairs) await pair.close();
  }
}

/** Non-blank lines of a program that are not comments. */
export function codeLines(file: string): number {
  let inBlock = false;
  let count = 0;
  for (const raw of readFileSync(join(here, 'team-peers', file), 'utf8').split('\n')) {
    const line = raw.trim();
    if (inBlock) {
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      inBlock = !line.includes('*/');
      continue;
    }
    count += 1;
  }
  return count;
}

const PROGRAM_PREFIX: Record<Framework, string> = { AgentLoom: 'agentloom', LangGraph: 'langgraph', 'OpenAI Agents': 'openai' };
/** A ratio as `1/x` below 1, as `x` above. */
const ratioText = (ratio: number) => (ratio < 1 ? `1/${(1 / ratio).toFixed(1)}` : ratio.toFixed(1));
const left = (text: string, width: number) => text.padStart(width);
const pad = (text: string, width: number) => text.padEnd(width);

async function main(): Promise<void> {
  const withPostgres = await postgresAvailable();
  if (!withPostgres) console.log('PostgreSQL is not reachable (AGENTLOOM_POSTGRES_URL): its rows are skipped.');
  const kinds: StoreKind[] = ['memory', 'sqlite', ...(withPostgres ? (['postgres'] as const) : [])];
  const rows: Row[] = [];
  for (const scenario of SCENARIOS) {
    const started = Date.now();
    rows.push(...(await measure(scenario, kinds)));
    process.stderr.write(`  measured ${scenario.name} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  rmSync(directory, { recursive: true, force: true });

  console.log(
    `\nteams: AgentLoom vs LangGraph.js (supervisor / swarm) vs OpenAI Agents, node ${process.version}, median of ${REPEATS} after ${WARMUP} warm-ups`,
  );
  console.log('per-turn overhead = (run time − time in the scripted models) / member turns; stored bytes of one run\n');
  console.log(
    `${pad('scenario', 28)}${pad('framework', 15)}${pad('store', 36)}${left('wall µs/turn', 13)}${left('CPU µs/turn', 13)}${left('model µs/run', 13)}${left('stored bytes', 14)}`,
  );
  let allMet = true;
  const verdicts: string[] = [];
  for (const scenario of SCENARIOS) {
    const label = `${scenario.name} (${scenario.turns} turns)`;
    const mine = rows.filter((row) => row.scenario === scenario.name);
    for (const row of mine) {
      console.log(
        `${pad(label, 28)}${pad(row.framework, 15)}${pad(row.variant ? `${row.store}, ${row.variant}` : row.store, 36)}${left(row.wall.toFixed(0), 13)}${left(row.cpu.toFixed(0), 13)}${left(row.model.toFixed(0), 13)}${left(String(row.bytes), 14)}`,
      );
    }
    const peers = mine.filter((row) => row.framework !== 'AgentLoom');
    const best = peers.reduce((a, b) => (b.wall < a.wall ? b : a));
    const bestCpu = peers.reduce((a, b) => (b.cpu < a.cpu ? b : a));
    for (const ours of mine.filter((row) => row.framework === 'AgentLoom')) {
      const ratio = ours.wall / best.wall;
      const met = ratio <= 1 / 5;
      // A non-default option is shown for what it would give; the targets are judged on the defaults.
      if (!ours.variant) allMet &&= met;
      verdicts.push(
        `${pad(scenario.name, 15)}overhead, AgentLoom ${pad(ours.store, 9)}${left(ours.wall.toFixed(0), 7)} µs/turn, best peer ${best.framework} ` +
          `(${best.store}) ${best.wall.toFixed(0)}: ${ratioText(ratio)} (CPU ${ratioText(ours.cpu / bestCpu.cpu)} of ${bestCpu.framework}'s); ` +
          (ours.variant
            ? `with ${ours.variant} (an option, not the default): ${met ? 'would meet' : 'would not meet'} ≤ 1/5`
            : `target ≤ 1/5: ${met ? 'met' : 'NOT met'}`),
      );
      if (ours.variant) continue;
      const langgraph = mine.find((row) => row.framework === 'LangGraph' && row.store.startsWith(ours.store));
      if (langgraph) {
        verdicts.push(
          `${pad('', 15)}  same store, LangGraph (${langgraph.store}) ${langgraph.wall.toFixed(0)} µs/turn: ${ratioText(ours.wall / langgraph.wall)} ` +
            `(CPU ${ratioText(ours.cpu / langgraph.cpu)}); stored bytes ${ratioText(ours.bytes / langgraph.bytes)}`,
        );
      }
    }
    const lines = (framework: Framework) => codeLines(`${PROGRAM_PREFIX[framework]}-${scenario.program}.ts`);
    const ours = lines('AgentLoom');
    const shortest = Math.min(lines('LangGraph'), lines('OpenAI Agents'));
    const met = ours <= shortest;
    allMet &&= met;
    verdicts.push(
      `${pad(scenario.name, 15)}code, lines: AgentLoom ${ours}, LangGraph ${lines('LangGraph')}, OpenAI Agents ${lines('OpenAI Agents')}; target ≤ ${shortest}: ${met ? 'met' : 'NOT met'}`,
    );
  }
  console.log(
    '\nOpenAI Agents has no checkpointer: a run cannot resume after a crash; its stored bytes are its MemorySession items.',
  );
  console.log('\ntargets (issue 31)\n');
  for (const verdict of verdicts) console.log(verdict);
  console.log(`\n${allMet ? 'every target met' : 'some targets NOT met (see above)'}`);
}

await main();
