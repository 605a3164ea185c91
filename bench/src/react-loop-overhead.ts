/**
 * Per-loop overhead of a 100-loop scripted ReAct run with a trivial tool, on the memory and
 * SQLite stores, against the raw cost of the same number of SQLite commits (plain inserts, same
 * pragmas) measured in the same process. The SQLite overhead is what the SQLite store adds to a
 * loop over the memory store (durability); the last line is
 * `ratio: <SQLite overhead per loop / raw commits per loop>`. The line above it also gives the
 * whole SQLite loop against the raw commits, engine included.
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

async function timeRun(store: RunStore): Promise<number> {
  const agent = new Agent({ name: 'bench', mode: 'react', model: loopingModel(), prompt: 'Benchmark.', tools: [ping], store });
  const started = process.hrtime.bigint();
  // A session of its own: the figure is one run's loop overhead, not the history of earlier runs.
  const result = await agent.run({ sessionId: `bench-${randomUUID()}`, input: 'loop' }).result();
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 'succeeded' || result.loops !== LOOPS) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return elapsed;
}

/** The raw cost of `commits` single-row transactions with the SqliteRunStore's pragmas. */
function timeRawCommits(path: string, commits: number, payload: string): number {
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
  const started = process.hrtime.bigint();
  for (let sequence = 1; sequence <= commits; sequence += 1) commit.immediate(runId, sequence);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  database.close();
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function main(): Promise<void> {
  const memoryTimes: number[] = [];
  const sqliteTimes: number[] = [];
  const rawTimes: number[] = [];
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
    if (repeat < 2) continue; // warm-up
    memoryTimes.push(memory);
    sqliteTimes.push(sqliteTime);
    rawTimes.push(raw);
  }
  rmSync(directory, { recursive: true, force: true });
  const perLoop = (ms: number) => (ms / LOOPS) * 1000;
  const memoryLoop = perLoop(median(memoryTimes));
  const sqliteLoop = perLoop(median(sqliteTimes));
  const rawLoop = perLoop(median(rawTimes));
  console.log(`react loop overhead: ${LOOPS} loops, median of ${REPEATS} runs, node ${process.version}`);
  console.log(`memory store:  ${memoryLoop.toFixed(1)} µs per loop (engine, scripted model and tool, no durability)`);
  console.log(
    `sqlite store:  ${sqliteLoop.toFixed(1)} µs per loop (${commits} commits per run, ${(commits / LOOPS).toFixed(2)} per loop)`,
  );
  console.log(`raw commits:   ${rawLoop.toFixed(1)} µs per loop (${commits} plain single-row transactions, same pragmas)`);
  console.log(`sqlite overhead (sqlite store − memory store): ${(sqliteLoop - memoryLoop).toFixed(1)} µs per loop`);
  console.log(`whole sqlite loop / raw commits: ${(sqliteLoop / rawLoop).toFixed(2)}`);
  console.log(`ratio: ${((sqliteLoop - memoryLoop) / rawLoop).toFixed(2)}`);
}

await main();
