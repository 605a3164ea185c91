/**
 * `npm run bench:events`: `RunClient.readEvents` of a journal of exactly 10,000 entries (a real
 * ReAct run of 1,999 loops, a few of which call two tools) against the raw read of the same
 * journal, on SQLite and PostgreSQL side by side in one run (issue 34: readEvents ≤ 2× the raw
 * read on both stores). The last line gives each store's ratio and the target.
 *
 * The raw read is the store's own `readJournal` (the query and the JSON parse of each entry, the
 * baseline the issue measured); a bare SELECT of the same rows through the same driver, without
 * parsing, is printed beside it. Every repeat times the three reads back to back, so that a
 * busy machine slows all of them alike; figures are medians, with this process's CPU time too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, RunClient, type RunStore, tool } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { ScriptedModel } from '@agentloom/sdk/testing';
import Database from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';
import { postgresAvailable, postgresUrl } from './workflow-stores.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 15);
const TARGET = 2;

/**
 * The run's shape for exactly `ENTRIES` journal entries: a loop with one tool call writes 5
 * entries (loop-started, model-responded, attempt-started, operation-finished, batch-joined), the
 * answering loop 3 and the run 1 more (run-started, run-finished), so `loops` loops write
 * 5 × loops − 1; each second tool call in a loop adds 2 (its attempt-started and operation-finished).
 */
function runShape(entries: number): { loops: number; twoToolLoops: number } {
  let loops = Math.floor((entries + 1) / 5);
  if ((entries - (5 * loops - 1)) % 2 !== 0) loops -= 1;
  return { loops, twoToolLoops: (entries - (5 * loops - 1)) / 2 };
}
const { loops: LOOPS, twoToolLoops: TWO_TOOL_LOOPS } = runShape(ENTRIES);

/** A store to measure, with a bare SELECT of one run's journal through the same driver. */
interface Target {
  name: string;
  store: RunStore;
  bareSelect(runId: string): Promise<unknown[]>;
  close(): Promise<void>;
}

async function sqliteTarget(directory: string): Promise<Target> {
  const path = join(directory, 'events.db');
  const store = new SqliteRunStore({ path });
  const database = new Database(path, { readonly: true });
  const select = database.prepare(
    'SELECT sequence, epoch, type, task_id, data, at FROM agentloom_journal WHERE run_id = ? AND sequence > 0 ORDER BY sequence',
  );
  return {
    name: 'SQLite',
    store,
    bareSelect: async (runId) => select.all(runId),
    close: async () => {
      database.close();
      await store.close();
    },
  };
}

async function postgresTarget(): Promise<Target> {
  const schema = `agentloom_bench_events_${process.pid}`;
  const store = await PostgresRunStore.fromConnectionString(postgresUrl, { schema });
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  // Text, as the store reads it: the driver's JSON parse is the store's, not the baseline's.
  const text = `SELECT sequence, epoch, type, task_id, data::text AS data, at FROM ${schema}.agentloom_journal
    WHERE run_id = $1 AND sequence > 0 ORDER BY sequence`;
  return {
    name: 'PostgreSQL',
    store,
    bareSelect: async (runId) => (await pool.query({ name: 'bare-journal', text, values: [runId] })).rows,
    close: async () => {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await pool.end();
      await store.close();
    },
  };
}

/** A real ReAct run of `LOOPS` loops, one tool call each but two in the first `TWO_TOOL_LOOPS`. */
async function longRun(store: RunStore): Promise<string> {
  const step = tool({
    name: 'step',
    description: 'One step.',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => `step ${n}`,
  });
  let calls = 0;
  const model = new ScriptedModel({
    respond: () => {
      calls += 1;
      if (calls > LOOPS - 1) return { text: 'done' };
      const call = { name: 'step', arguments: { n: calls } };
      return { toolCalls: calls <= TWO_TOOL_LOOPS ? [call, { name: 'step', arguments: { n: -calls } }] : [call] };
    },
  });
  const agent = new Agent({
    name: 'long',
    mode: 'react',
    model,
    prompt: 'p',
    tools: [step],
    store,
    execution: { maxLoops: LOOPS + 1 },
  });
  const run = agent.run({ sessionId: 'events-session', input: 'go' });
  await run.result();
  return run.runId;
}

interface Timing {
  wall: number;
  cpu: number;
}

async function time(work: () => Promise<unknown>): Promise<Timing> {
  const cpuStarted = process.cpuUsage();
  const started = process.hrtime.bigint();
  await work();
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuStarted);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** One store's row of the table, and its ratio readEvents / raw read (wall, CPU). */
async function measure(target: Target): Promise<{ row: string[]; ratio: { wall: number; cpu: number } }> {
  const runId = await longRun(target.store);
  const client = new RunClient({ store: target.store });
  const entries = (await target.store.readJournal(runId)).length;
  if (entries !== ENTRIES) throw new Error(`${target.name}: the run wrote ${entries} journal entries, not ${ENTRIES}`);
  const events = (await client.readEvents(runId)).length;
  const bare = (await target.bareSelect(runId)).length;
  if (bare !== entries) throw new Error(`${target.name}: the bare select read ${bare} rows, readJournal ${entries}`);
  const reads = { readEvents: [] as Timing[], readJournal: [] as Timing[], bare: [] as Timing[] };
  for (let repeat = 0; repeat < REPEATS + 1; repeat += 1) {
    const readEvents = await time(() => client.readEvents(runId));
    const readJournal = await time(() => target.store.readJournal(runId));
    const select = await time(() => target.bareSelect(runId));
    if (repeat === 0) continue; // warm-up
    reads.readEvents.push(readEvents);
    reads.readJournal.push(readJournal);
    reads.bare.push(select);
  }
  const figure = (timings: Timing[]) => ({
    wall: median(timings.map((timing) => timing.wall)),
    cpu: median(timings.map((timing) => timing.cpu)),
  });
  const events_ = figure(reads.readEvents);
  const journal = figure(reads.readJournal);
  const select = figure(reads.bare);
  const ms = (timing: { wall: number; cpu: number }) => `${timing.wall.toFixed(1)} ms (CPU ${timing.cpu.toFixed(1)})`;
  const ratio = { wall: events_.wall / journal.wall, cpu: events_.cpu / journal.cpu };
  const row = [
    target.name,
    `${entries.toLocaleString('en')} entries, ${events.toLocaleString('en')} events`,
    ms(events_),
    ms(journal),
    ms(select),
    `${ratio.wall.toFixed(2)} (CPU ${ratio.cpu.toFixed(2)})`,
  ];
  return { row, ratio };
}

const directory = mkdtempSync(join(tmpdir(), 'agentloom-bench-events-'));
const rows: string[][] = [];
const ratios: string[] = [];
try {
  const targets: Array<() => Promise<Target>> = [() => sqliteTarget(directory)];
  if (await postgresAvailable()) targets.push(postgresTarget);
  else console.log(`PostgreSQL at ${postgresUrl} did not answer: SQLite only.`);
  for (const open of targets) {
    const target = await open();
    try {
      const { row, ratio } = await measure(target);
      rows.push(row);
      ratios.push(`${target.name} ${ratio.wall.toFixed(2)} (CPU ${ratio.cpu.toFixed(2)})`);
    } finally {
      await target.close();
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
console.log(
  `readEvents of one ${LOOPS.toLocaleString('en')}-loop ReAct run (${ENTRIES.toLocaleString('en')} entries), median of ${REPEATS}, node ${process.version}\n`,
);
console.log(
  `| store | journal | readEvents | raw read (readJournal) | bare SELECT, no parse | readEvents / raw read (target ≤ ${TARGET}) |`,
);
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(`\nratio (readEvents / raw read): ${ratios.join(', ')}; target ≤ ${TARGET}`);
