/**
 * Workflow engine benchmark: the same scenarios run side by side in one process with AgentLoom
 * and with LangGraph.js (the measurement baseline), on no store, memory, SQLite and PostgreSQL
 * (skipped when the server is unreachable). Prints the time per node execution, the stored
 * bytes of the 1 KB-append chain and the ratios AgentLoom / LangGraph.js, with the targets.
 *
 * Durability: `sync` on both sides (each step's progress is durable before the next step), the
 * setting a crash-safe run needs; with no store, AgentLoom runs on a memory store saved once at
 * exit and LangGraph runs without a checkpointer. `BENCH_REPEATS` (default 3; the short chain
 * scenarios take three times as many) sets the measured repeats after one warm-up; figures are
 * medians. Both engines build (compile) their graph inside the measured time. Last, the graph
 * API ergonomics table (`src/ergonomics/`): the same four graphs written with both APIs, counted
 * in non-blank characters (`npm run workflow:ergonomics` prints it alone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printErgonomics } from './ergonomics/ergonomics.js';
import { agentloomAppendChain, agentloomFanOut, agentloomLoop, crashingAt } from './workflow-agentloom.js';
import { langgraphAppendChain, langgraphFanOut, langgraphLoop } from './workflow-langgraph.js';
import { openStores, postgresAvailable, type StoreKind, type StorePair } from './workflow-stores.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const KILOBYTE = 'x'.repeat(1024);
const directory = mkdtempSync(join(tmpdir(), 'agentloom-workflow-bench-'));

type Mode = 'sync' | 'async';

interface Scenario {
  name: string;
  /** Measured repeats: short scenarios get more, so that a garbage collection does not decide the median. */
  repeats: number;
  kinds: readonly StoreKind[];
  modes: readonly Mode[];
  agentloom(stores: StorePair, runId: string, mode: Mode): Promise<number>;
  langgraph(stores: StorePair, threadId: string, mode: Mode): Promise<number>;
}

const allKinds: readonly StoreKind[] = ['none', 'memory', 'sqlite', 'postgres'];
/** AgentLoom's durability for a store kind and mode: with no store, the memory store is saved once at exit. */
const durabilityOf = (stores: StorePair, mode: Mode) => (kindOf(stores) === 'none' ? 'exit' : mode);

const scenarios: Scenario[] = [
  {
    name: '2-node loop ×1000',
    repeats: REPEATS,
    kinds: allKinds,
    modes: ['sync', 'async'],
    agentloom: (stores, id, mode) => agentloomLoop({ store: stores.agentloom, durability: durabilityOf(stores, mode) }, 1000, id),
    langgraph: (stores, id, mode) => langgraphLoop({ checkpointer: stores.langgraph, durability: mode }, 1000, id),
  },
  {
    name: 'fan-out 1000 + join',
    repeats: REPEATS,
    kinds: allKinds,
    modes: ['sync', 'async'],
    agentloom: (stores, id, mode) =>
      agentloomFanOut({ store: stores.agentloom, durability: durabilityOf(stores, mode) }, 1000, id),
    langgraph: (stores, id, mode) => langgraphFanOut({ checkpointer: stores.langgraph, durability: mode }, 1000, id),
  },
  {
    name: 'chain 100, +1 KB each',
    repeats: REPEATS * 3,
    kinds: allKinds,
    modes: ['sync', 'async'],
    agentloom: (stores, id, mode) =>
      agentloomAppendChain({ store: stores.agentloom, durability: durabilityOf(stores, mode) }, 100, KILOBYTE, id),
    langgraph: (stores, id, mode) =>
      langgraphAppendChain({ checkpointer: stores.langgraph, durability: mode }, 100, KILOBYTE, id),
  },
  {
    name: 'chain 100, crash at 50, resume',
    repeats: REPEATS * 3,
    kinds: ['memory', 'sqlite', 'postgres'],
    modes: ['sync'],
    agentloom: async (stores, id) =>
      1 +
      (await agentloomAppendChain({ store: crashingAt(stores.agentloom, id, '50/n50'), durability: 'sync' }, 100, KILOBYTE, id)),
    langgraph: async (stores, id) =>
      1 + (await langgraphAppendChain({ checkpointer: stores.langgraph, durability: 'sync' }, 100, KILOBYTE, id, 50)),
  },
];

const kinds = new WeakMap<StorePair, StoreKind>();
function kindOf(stores: StorePair): StoreKind {
  return kinds.get(stores) ?? 'none';
}

async function timed(work: () => Promise<number>): Promise<number> {
  const started = process.hrtime.bigint();
  const executions = await work();
  return Number(process.hrtime.bigint() - started) / 1000 / executions;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

interface Row {
  scenario: string;
  kind: StoreKind;
  mode: Mode | 'none';
  agentloom: number;
  langgraph: number;
}

interface BytesRow {
  kind: StoreKind;
  agentloom: number;
  langgraph: number;
}

let counter = 0;

async function measure(scenario: Scenario, kind: StoreKind, mode: Mode, bytes: BytesRow[]): Promise<Row> {
  const agentloomTimes: number[] = [];
  const langgraphTimes: number[] = [];
  for (let repeat = 0; repeat <= scenario.repeats; repeat += 1) {
    const stores = await openStores(kind, directory);
    kinds.set(stores, kind);
    try {
      counter += 1;
      const id = `bench-${counter}`;
      const agentloom = await timed(() => scenario.agentloom(stores, id, mode));
      const langgraph = await timed(() => scenario.langgraph(stores, id, mode));
      if (repeat === 0) continue; // warm-up
      agentloomTimes.push(agentloom);
      langgraphTimes.push(langgraph);
      if (
        repeat === 1 &&
        scenario.name.startsWith('chain 100, +1') &&
        allKinds.includes(kind) &&
        kind !== 'none' &&
        mode === 'sync'
      ) {
        bytes.push({ kind, agentloom: await stores.agentloomBytes(id), langgraph: await stores.langgraphBytes(id) });
      }
    } finally {
      await stores.close();
    }
  }
  return {
    scenario: scenario.name,
    kind,
    mode: kind === 'none' ? 'none' : mode,
    agentloom: median(agentloomTimes),
    langgraph: median(langgraphTimes),
  };
}

function targetOf(kind: StoreKind): number {
  return kind === 'none' || kind === 'memory' ? 1 / 10 : 1 / 5;
}

const pad = (text: string, width: number) => text.padEnd(width);
const left = (text: string, width: number) => text.padStart(width);
const fraction = (ratio: number) => `1/${(1 / ratio).toFixed(1)}`;

async function main(): Promise<void> {
  const withPostgres = await postgresAvailable();
  if (!withPostgres) console.log('PostgreSQL is not reachable (AGENTLOOM_POSTGRES_URL): its rows are skipped.');
  const rows: Row[] = [];
  const bytes: BytesRow[] = [];
  for (const mode of ['sync', 'async'] as const) {
    for (const scenario of scenarios) {
      if (!scenario.modes.includes(mode)) continue;
      for (const kind of scenario.kinds) {
        if ((kind === 'postgres' && !withPostgres) || (kind === 'none' && mode === 'async')) continue;
        const started = Date.now();
        rows.push(await measure(scenario, kind, mode, bytes));
        const row = rows.at(-1) as Row;
        process.stderr.write(
          `  measured ${row.scenario} / ${row.kind} / ${mode} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
        );
      }
    }
  }
  rmSync(directory, { recursive: true, force: true });

  console.log(
    `\nworkflow engine: AgentLoom vs LangGraph.js, node ${process.version}, median of ${REPEATS} (chains: ${REPEATS * 3}) after a warm-up`,
  );
  console.log('time per node execution (µs), the same durability on both sides (none: no checkpointer / memory saved at exit)\n');
  console.log(
    `${pad('scenario', 32)}${pad('store', 10)}${pad('durability', 11)}${left('AgentLoom', 11)}${left('LangGraph', 11)}${left('ratio', 9)}${left('target', 8)}  met`,
  );
  let allMet = true;
  for (const row of rows) {
    const ratio = row.agentloom / row.langgraph;
    const met = ratio <= targetOf(row.kind);
    allMet &&= met;
    console.log(
      `${pad(row.scenario, 32)}${pad(row.kind, 10)}${pad(row.mode, 11)}${left(row.agentloom.toFixed(1), 11)}${left(row.langgraph.toFixed(1), 11)}` +
        `${left(fraction(ratio), 9)}${left(fraction(targetOf(row.kind)), 8)}  ${met ? 'yes' : 'NO'}`,
    );
  }
  console.log("\nstored bytes of the chain of 100 nodes each appending 1 KB (payload of the run's rows)\n");
  console.log(`${pad('store', 10)}${left('AgentLoom', 12)}${left('LangGraph', 12)}${left('ratio', 9)}${left('target', 8)}  met`);
  for (const row of bytes) {
    const ratio = row.agentloom / row.langgraph;
    const met = ratio <= 1 / 20;
    allMet &&= met;
    console.log(
      `${pad(row.kind, 10)}${left(String(row.agentloom), 12)}${left(String(row.langgraph), 12)}${left(fraction(ratio), 9)}${left('1/20', 8)}  ${met ? 'yes' : 'NO'}`,
    );
  }
  allMet = (await printErgonomics()) && allMet;
  console.log(`\n${allMet ? 'every target met' : 'some targets NOT met (see NO above)'}`);
}

await main();
