/**
 * Per-loop overhead of a 100-loop scripted ReAct run with a trivial tool, on the memory and
 * SQLite stores, against the raw cost of the same number of SQLite commits (plain inserts, same
 * pragmas) measured in the same process. The SQLite overhead is what the SQLite store adds to a
 * loop over the memory store (durability); the last line is
 * `ratio (sqlite overhead / raw commits): <wall> (CPU <cpu>); target ≤ 2` (issue 34). The line
 * above it also gives the whole SQLite loop against the raw commits, engine included.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, MemoryRunStore, type RunStore, tool } from '@agentloom/sdk';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { ScriptedModel } from '@agentloom/sdk/testing';
import Database from 'better-sqlite3';
import { z } from 'zod';

const LOOPS = 100;
/** Issue 34: the SQLite store's overhead per loop at most twice the raw commits it makes. */
const TARGET = 2;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 15);
const directory = mkdtempSync(join(tmpdir(), 'agentloom-bench-'));

const ping = tool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `pong ${n}`,
});

/** A model that calls `ping` until LOOPS - 1 results are in, then answers: exactly LOOPS loops. */
function loopingModel(): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const last = request.messages.at(-1);
      const seen = last?.role === 'tool' ? Number(last.content.slice(5)) + 1 : 0;
      return seen >= LOOPS - 1 ? { text: 'done' } : { toolCalls: [{ name: 'ping', arguments: { n: seen } }] };
    },
  });
}

/** Counts the commits a store receives. */
function counting(store: RunStore): { store: RunStore; commits: () => number } {
  let commits = 0;
  const append = store.append.bind(store);
  const acquire = store.acquire.bind(store);
  store.append = (request) => {
    commits += 1;
    return append(request);
  };
  store.acquire = (request) => {
    commits += 1;
    return acquire(request);
  };
  return { store, commits: () => commits };
}

/** Wall and CPU time (user + system, of this process) of one measured piece, in milliseconds. */
interface Timing {
  wall: number;
  cpu: number;
}

const cpuNow = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function timeRun(store: RunStore): Promise<Timing> {
  const agent = new Agent({ name: 'bench', mode: 'react', model: loopingModel(), prompt: 'Benchmark.', tools: [ping], store });
  const cpuStarted = cpuNow();
  const started = process.hrtime.bigint();
  // A session of its own: the figure is one run's loop overhead, not the history of earlier runs.
  const result = await agent.run({ sessionId: `bench-${randomUUID()}`, input: 'loop' }).result();
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = cpuNow() - cpuStarted;
  if (result.status !== 'succeeded' || result.loops !== LOOPS) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return { wall: elapsed, cpu };
}

/**
 * A memory store whose every commit (append, acquire) also makes one raw single-row SQLite
 * transaction, synchronously, with the store's pragmas: the raw commits measured inside the same
 * engine run (caches, allocation and timers as the SQLite store sees them), not in a tight loop.
 */
function memoryWithRawCommits(path: string, payload: string): { store: RunStore; close: () => void } {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec(
    'CREATE TABLE IF NOT EXISTS raw (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, sequence)) WITHOUT ROWID',
  );
  const insert = database.prepare('INSERT INTO raw (run_id, sequence, data) VALUES (?, ?, ?)');
  const commit = database.transaction((runId: string, sequence: number) => insert.run(runId, sequence, payload));
  const runId = `inline-${Math.random()}`;
  let sequence = 0;
  const store = new MemoryRunStore();
  const append = store.append.bind(store);
  const acquire = store.acquire.bind(store);
  store.append = (request) => {
    sequence += 1;
    commit.immediate(runId, sequence);
    return append(request);
  };
  store.acquire = (request) => {
    sequence += 1;
    commit.immediate(runId, sequence);
    return acquire(request);
  };
  return { store, close: () => database.close() };
}

/** The raw cost of `commits` single-row transactions with the SqliteRunStore's pragmas. */
function timeRawCommits(path: string, commits: number, payload: string): Timing {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.exec(
    'CREATE TABLE IF NOT EXISTS raw (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, sequence)) WITHOUT ROWID',
  );
  const insert = database.prepare('INSERT INTO raw (run_id, sequence, data) VALUES (?, ?, ?)');
  const commit = database.transaction((runId: string, sequence: number) => insert.run(runId, sequence, payload));
  const runId = `raw-${Math.random()}`;
  const cpuStarted = cpuNow();
  const started = process.hrtime.bigint();
  for (let sequence = 1; sequence <= commits; sequence += 1) commit.immediate(runId, sequence);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = cpuNow() - cpuStarted;
  database.close();
  return { wall: elapsed, cpu };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function main(): Promise<void> {
  const memoryTimes: Timing[] = [];
  const sqliteTimes: Timing[] = [];
  const rawTimes: Timing[] = [];
  const inlineTimes: Timing[] = [];
  let commits = 0;
  const sqlitePath = join(directory, 'runs.db');
  const rawPath = join(directory, 'raw.db');
  // A typical journal payload: a model response with one tool call.
  const payload = JSON.stringify({
    loop: 1,
    attempt: 1,
    message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_1_0', name: 'ping', arguments: { n: 1 } }] },
  });
  for (let repeat = 0; repeat < REPEATS + 2; repeat += 1) {
    const memory = await timeRun(new MemoryRunStore());
    const sqlite = counting(new SqliteRunStore({ path: sqlitePath }));
    const sqliteTime = await timeRun(sqlite.store);
    await sqlite.store.close();
    commits = sqlite.commits();
    const raw = timeRawCommits(rawPath, commits, payload);
    const inline = memoryWithRawCommits(join(directory, 'inline.db'), payload);
    const inlineTime = await timeRun(inline.store);
    inline.close();
    if (repeat < 2) continue; // warm-up
    memoryTimes.push(memory);
    sqliteTimes.push(sqliteTime);
    rawTimes.push(raw);
    inlineTimes.push(inlineTime);
  }
  rmSync(directory, { recursive: true, force: true });
  /** Median per loop in µs of one clock. */
  const perLoop = (times: Timing[], clock: keyof Timing) => (median(times.map((time) => time[clock])) / LOOPS) * 1000;
  const figures = (clock: keyof Timing) => {
    const memoryLoop = perLoop(memoryTimes, clock);
    const sqliteLoop = perLoop(sqliteTimes, clock);
    const rawLoop = perLoop(rawTimes, clock);
    const inlineRawLoop = perLoop(inlineTimes, clock) - memoryLoop;
    return {
      memoryLoop,
      sqliteLoop,
      rawLoop,
      inlineRawLoop,
      whole: sqliteLoop / rawLoop,
      inlineRatio: (sqliteLoop - memoryLoop) / inlineRawLoop,
      ratio: (sqliteLoop - memoryLoop) / rawLoop,
    };
  };
  const wall = figures('wall');
  const cpu = figures('cpu');
  // Each repeat measures the four pieces back to back, so a load that comes and goes on a shared
  // machine slows all of one repeat alike: the median of the repeats' own ratios cancels it.
  const paired = (clock: keyof Timing) =>
    median(
      memoryTimes.map(
        (memory, index) => ((sqliteTimes[index] as Timing)[clock] - memory[clock]) / (rawTimes[index] as Timing)[clock],
      ),
    );
  const both = (wallValue: number, cpuValue: number, digits = 1) =>
    `${wallValue.toFixed(digits)} (CPU ${cpuValue.toFixed(digits)})`;
  console.log(`react loop overhead: ${LOOPS} loops, median of ${REPEATS} runs, node ${process.version}`);
  console.log("wall time, and in brackets this process's CPU time (user + system), steadier on a busy machine");
  console.log(
    `memory store:  ${both(wall.memoryLoop, cpu.memoryLoop)} µs per loop (engine, scripted model and tool, no durability)`,
  );
  console.log(
    `sqlite store:  ${both(wall.sqliteLoop, cpu.sqliteLoop)} µs per loop (${commits} commits per run, ${(commits / LOOPS).toFixed(2)} per loop)`,
  );
  console.log(
    `raw commits:   ${both(wall.rawLoop, cpu.rawLoop)} µs per loop (${commits} plain single-row transactions, same pragmas)`,
  );
  console.log(
    `sqlite overhead (sqlite store − memory store): ${both(wall.sqliteLoop - wall.memoryLoop, cpu.sqliteLoop - cpu.memoryLoop)} µs per loop`,
  );
  console.log(
    `raw commits inside the run (memory store + one raw commit per store commit, minus memory store): ${both(wall.inlineRawLoop, cpu.inlineRawLoop)} µs per loop`,
  );
  console.log(`sqlite overhead / raw commits inside the run: ${both(wall.inlineRatio, cpu.inlineRatio, 2)}`);
  console.log(`whole sqlite loop / raw commits: ${both(wall.whole, cpu.whole, 2)}`);
  console.log(`median of each repeat's own sqlite overhead / raw commits: ${both(paired('wall'), paired('cpu'), 2)}`);
  console.log(`ratio (sqlite overhead / raw commits): ${both(wall.ratio, cpu.ratio, 2)}; target ≤ ${TARGET}`);
}

await main();
