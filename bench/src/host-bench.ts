/**
 * `npm run bench:host`: the host API on a large store, against the raw query in the same run.
 * - `listRuns` on 100,000 runs (first page, a page 50,000 runs deep through its cursor, one
 *   session's runs, a metadata filter) and `listSessions`, against a hand-written SELECT of the
 *   same page through the same driver;
 * - `readEvents` on a 10,000-entry journal (a real ReAct run of 2,000 loops) against
 *   `readJournal` of the same journal, and `follow` from sequence 0 to the terminal event.
 * Runs on SQLite and, when it answers, on PostgreSQL. The 100,000 rows are inserted in bulk with
 * SQL (the same columns `createRun` writes); the journal is written by the engine.
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

const RUNS = 100_000;
const SESSIONS = 10_000;
const LOOPS = 2_000;
const REPEATS = 15;

/** Median wall time of `work` over `REPEATS` runs after one warm-up, in milliseconds. */
async function median(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let index = 0; index < REPEATS; index += 1) {
    const started = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

interface Target {
  name: string;
  store: RunStore;
  /** The raw baseline: the same page as `listRuns` (newest first, after a position), through the same driver. */
  rawPage(before: { createdAt: number; runId: string } | undefined, sessionId?: string): Promise<unknown[]>;
  /** The raw baseline of the metadata filter: the same JSON condition, by hand. */
  rawMetadata(release: string): Promise<unknown[]>;
  /** The raw baseline of `listSessions`: the first page of the session summaries. */
  rawSessions(): Promise<unknown[]>;
  close(): Promise<void>;
}

async function sqliteTarget(directory: string): Promise<Target> {
  const path = join(directory, 'host.db');
  const store = new SqliteRunStore({ path });
  const database = new Database(path);
  const insert = database.prepare(
    `INSERT INTO agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used,
       created_at, updated_at, result, kind, name, metadata) VALUES (?, ?, 'succeeded', NULL, 1, 0, 0, 3, ?, ?, NULL, 'agent', 'bench', ?)`,
  );
  database.transaction(() => {
    for (let index = 0; index < RUNS; index += 1) {
      const at = 1_700_000_000_000 + index;
      insert.run(
        `run-${String(index).padStart(6, '0')}`,
        `session-${index % SESSIONS}`,
        at,
        at,
        JSON.stringify({ release: `r-${index % 100}` }),
      );
    }
  })();
  const firstPage = database.prepare(
    `SELECT * FROM agentloom_runs WHERE status <> 'deleted' ORDER BY created_at DESC, run_id DESC LIMIT 51`,
  );
  const page = database.prepare(
    `SELECT * FROM agentloom_runs WHERE status <> 'deleted' AND (created_at, run_id) < (?, ?)
     ORDER BY created_at DESC, run_id DESC LIMIT 51`,
  );
  const metadataPage = database.prepare(
    `SELECT * FROM agentloom_runs WHERE status <> 'deleted' AND json_extract(metadata, '$.release') = ?
     ORDER BY created_at DESC, run_id DESC LIMIT 51`,
  );
  const sessions = database.prepare('SELECT * FROM agentloom_sessions ORDER BY last_run_at DESC, session_id DESC LIMIT 51');
  const sessionPage = database.prepare(
    `SELECT * FROM agentloom_runs WHERE status <> 'deleted' AND session_id = ? ORDER BY created_at DESC, run_id DESC LIMIT 51`,
  );
  return {
    name: 'SQLite',
    store,
    rawPage: async (before, sessionId) =>
      sessionId !== undefined ? sessionPage.all(sessionId) : before ? page.all(before.createdAt, before.runId) : firstPage.all(),
    rawMetadata: async (release) => metadataPage.all(release),
    rawSessions: async () => sessions.all(),
    close: async () => {
      database.close();
      await store.close();
    },
  };
}

async function postgresTarget(): Promise<Target> {
  const schema = `agentloom_bench_host_${process.pid}`;
  const store = await PostgresRunStore.fromConnectionString(postgresUrl, { schema });
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
  await pool.query(
    `INSERT INTO ${schema}.agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used,
       last_sequence, created_at, updated_at, result, kind, name, metadata)
     SELECT 'run-' || lpad(index::text, 6, '0'), 'session-' || (index % ${SESSIONS}), 'succeeded', NULL, 1, 0, 0, 3, 0,
       1700000000000 + index, 1700000000000 + index, NULL, 'agent', 'bench', '{"release":"r-' || (index % 100) || '"}'
     FROM generate_series(0, ${RUNS - 1}) AS index`,
  );
  await pool.query(`ANALYZE ${schema}.agentloom_runs`);
  await pool.query(`ANALYZE ${schema}.agentloom_sessions`);
  return {
    name: 'PostgreSQL',
    store,
    rawPage: async (before, sessionId) =>
      (
        await pool.query(
          sessionId !== undefined
            ? `SELECT * FROM ${schema}.agentloom_runs WHERE status <> 'deleted' AND session_id = $1 ORDER BY created_at DESC, run_id DESC LIMIT 51`
            : `SELECT * FROM ${schema}.agentloom_runs WHERE status <> 'deleted' AND (NOT $1::boolean OR (created_at, run_id) < ($2::bigint, $3::text))
               ORDER BY created_at DESC, run_id DESC LIMIT 51`,
          sessionId !== undefined ? [sessionId] : [before !== undefined, before?.createdAt ?? 0, before?.runId ?? ''],
        )
      ).rows,
    rawMetadata: async (release) =>
      (
        await pool.query(
          `SELECT * FROM ${schema}.agentloom_runs WHERE status <> 'deleted' AND metadata::jsonb @> $1::jsonb
           ORDER BY created_at DESC, run_id DESC LIMIT 51`,
          [JSON.stringify({ release })],
        )
      ).rows,
    rawSessions: async () =>
      (await pool.query(`SELECT * FROM ${schema}.agentloom_sessions ORDER BY last_run_at DESC, session_id DESC LIMIT 51`)).rows,
    close: async () => {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await pool.end();
      await store.close();
    },
  };
}

/** A real ReAct run of `LOOPS` loops, one tool call each: 6 journal entries per loop. */
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
      return calls <= LOOPS - 1 ? { toolCalls: [{ name: 'step', arguments: { n: calls } }] } : { text: 'done' };
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
  const run = agent.run({ sessionId: 'long-session', input: 'go' });
  await run.result();
  return run.runId;
}

const format = (ms: number) => `${ms.toFixed(2)} ms`;
const rows: string[][] = [];

async function measure(target: Target): Promise<void> {
  const client = new RunClient({ store: target.store });
  const first = await client.listRuns({ limit: 50 });
  const deepStart = { createdAt: 1_700_000_000_000 + RUNS / 2, runId: `run-${String(RUNS / 2).padStart(6, '0')}` };
  const deepCursor = Buffer.from(JSON.stringify(deepStart)).toString('base64url');
  const cases: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
    ['listRuns, first page of 50', () => client.listRuns({ limit: 50 }), () => target.rawPage(undefined)],
    [
      'listRuns, page 50,000 runs deep',
      () => client.listRuns({ limit: 50, cursor: deepCursor }),
      () => target.rawPage(deepStart),
    ],
    [
      'listRuns, one session',
      () => client.listRuns({ limit: 50, sessionId: 'session-4242' }),
      () => target.rawPage(undefined, 'session-4242'),
    ],
    [
      'listRuns, metadata filter (1 run in 100)',
      () => client.listRuns({ limit: 50, metadata: { release: 'r-42' } }),
      () => target.rawPage(undefined),
    ],
    ['listSessions, first page of 50', () => client.listSessions({ limit: 50 }), () => target.rawPage(undefined)],
  ];
  if (first.items.length !== 50 || !first.nextCursor) throw new Error('listRuns did not return a full page');
  for (const [label, host, raw] of cases) {
    const hostMs = await median(host);
    const rawMs = await median(raw);
    rows.push([target.name, label, format(hostMs), format(rawMs), (hostMs / rawMs).toFixed(1)]);
  }
  const runId = await longRun(target.store);
  const journal = await target.store.readJournal(runId);
  const events = await client.readEvents(runId);
  const readMs = await median(() => client.readEvents(runId));
  const rawMs = await median(() => target.store.readJournal(runId));
  rows.push([
    target.name,
    `readEvents, ${journal.length}-entry journal (${events.length} events)`,
    format(readMs),
    format(rawMs),
    (readMs / rawMs).toFixed(1),
  ]);
  const followMs = await median(async () => {
    for await (const _event of client.follow(runId)) {
      // drain to the terminal event
    }
  });
  rows.push([target.name, 'follow from 0 to run-finish', format(followMs), format(rawMs), (followMs / rawMs).toFixed(1)]);
}

const directory = mkdtempSync(join(tmpdir(), 'agentloom-bench-host-'));
try {
  const targets: Array<() => Promise<Target>> = [() => sqliteTarget(directory)];
  if (await postgresAvailable()) targets.push(postgresTarget);
  else console.log(`PostgreSQL at ${postgresUrl} did not answer: SQLite only.`);
  for (const open of targets) {
    const target = await open();
    try {
      await measure(target);
    } finally {
      await target.close();
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
console.log(
  `host API on ${RUNS.toLocaleString('en')} runs in ${SESSIONS.toLocaleString('en')} sessions (median of ${REPEATS})\n`,
);
console.log('| store | operation | host API | raw query | ratio |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
