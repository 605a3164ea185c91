/**
 * `npm run bench:session`: one session of many runs (default 10,000, `--runs N` to change), on
 * SQLite and, when it answers, PostgreSQL (`--stores sqlite` or `--stores postgres` for one) (issue 18, item 7; ADRs 0010 and 0012). Every run is a real
 * `agent.run()` to its result with a scripted model and the default history window (2 runs).
 * With a context window (`--window TOKENS`, default 8000; `--window none` for none) runs make
 * session checkpoints (ADR 0012): the scripted model answers the compression agent's requests
 * with a short summary. For a run early in the session and for the last ones it prints the wall
 * time of the whole run and until its first business model call (creating and starting the run,
 * a checkpoint included when it makes one), the rows and bytes the run read from the store, the
 * bytes it stored (its journal entries and its digest) and its `run-started` size.
 *
 * "rows read" and "bytes read" are what the store really read from its database during the run:
 * every row any statement answered, counted at the driver (`driver-read-meter.ts`, issue 34).
 * "records / bytes" are what the store answered (a run record with its digest, a journal entry;
 * the JSON length), counted by a wrapper around the real store whose counting time is subtracted
 * from the run's time. At the end the run prints issue 34's target — runs #2,001 and #N+1 read no
 * more than run #10 plus the window — and the saw-tooth's peak over the session and its second half.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type RunStore } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { ScriptedModel } from '@agentloom/sdk/testing';
import pg from 'pg';
import { installDriverReadMeter } from './driver-read-meter.js';
import { postgresAvailable, postgresUrl } from './workflow-stores.js';

/** Rows and bytes the store really reads from its database (issue 34), installed before any store opens. */
const driver = installDriverReadMeter();

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const RUNS = Number(argument('--runs') ?? 10_000);
/** The agent's context window in tokens; `none` for none (then no checkpoint, H-3 linear). */
const WINDOW_TOKENS = argument('--window') === 'none' ? undefined : Number(argument('--window') ?? 8000);
/** `--stores sqlite`, `--stores postgres` or both (the default). */
const STORES = argument('--stores') ?? 'sqlite,postgres';
/** Runs whose figures are printed one by one (#2,001 too in a longer session: issue 34's figure). */
const SHOWN = [10, ...(RUNS > 2_001 ? [2_001] : []), RUNS, RUNS + 1];
/** Runs on each side of a shown run whose medians are printed too (the time of one run is noisy). */
const WINDOW = 5;

/** What one run read and wrote, as the wrapper saw it. */
interface RunFigures {
  ms: number;
  /** Rows every statement of the run answered the store, as the database driver handed them over. */
  rowsRead: number;
  bytesRead: number;
  /** Records the store answered (run rows with digests, journal entries) and their JSON length. */
  recordsRead: number;
  recordBytes: number;
  /** Of those, the journal entries of the history window's runs given in full. */
  windowRows: number;
  windowBytes: number;
  runStartedBytes: number;
  historyCharacters: number;
  readMs: number;
  /** From `run()` until the first business model call began. */
  startMs: number;
  bytesStored: number;
}

/** Counts what read operations answer, and the size of each new run's `run-started`. */
class Meter {
  rows = 0;
  bytes = 0;
  runStartedBytes = 0;
  /** Journal entries `readSession` answered (the full runs of the history window, and unfinished runs). */
  windowRows = 0;
  windowBytes = 0;
  /** JSON length of every journal entry and digest the run wrote. */
  bytesStored = 0;
  /** Wall time spent in reads (`readSession`, `readJournal`, `getRun` …), in milliseconds. */
  readMs = 0;
  /** Wall time the meter itself spent counting, subtracted from the run's time. */
  overheadMs = 0;

  wrap(store: RunStore): RunStore {
    const count = (rows: unknown[]) => {
      const begin = process.hrtime.bigint();
      this.rows += rows.length;
      for (const row of rows) this.bytes += JSON.stringify(row).length;
      this.overheadMs += Number(process.hrtime.bigint() - begin) / 1e6;
    };
    return new Proxy(store, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (property === 'acquire') {
            const started = (args[0] as { initialEntries: { type: string; data: unknown }[] }).initialEntries.find(
              (entry) => entry.type === 'run-started',
            );
            if (started) this.runStartedBytes = JSON.stringify(started.data).length;
            for (const entry of (args[0] as { initialEntries: unknown[] }).initialEntries) {
              this.bytesStored += JSON.stringify(entry).length;
            }
          }
          if (property === 'append') {
            const request = args[0] as { entries: unknown[]; digest?: unknown };
            for (const entry of request.entries) this.bytesStored += JSON.stringify(entry).length;
            if (request.digest !== undefined) this.bytesStored += JSON.stringify(request.digest).length;
          }
          const begin = process.hrtime.bigint();
          const answer = await value.apply(target, args);
          if (property.toString().startsWith('read') || property === 'getRun' || property.toString().startsWith('list')) {
            this.readMs += Number(process.hrtime.bigint() - begin) / 1e6;
          }
          if (property === 'readJournal' || property === 'listSessionRuns' || property === 'listRuns') count(answer);
          if (property === 'getRun' && answer) count([answer]);
          if (property === 'readSession') {
            for (const read of answer as { run: unknown; digest?: unknown; journal?: unknown[] }[]) {
              count([{ run: read.run, digest: read.digest }]);
              count(read.journal ?? []);
              const begin = process.hrtime.bigint();
              this.windowRows += read.journal?.length ?? 0;
              for (const entry of read.journal ?? []) this.windowBytes += JSON.stringify(entry).length;
              this.overheadMs += Number(process.hrtime.bigint() - begin) / 1e6;
            }
          }
          return answer;
        };
      },
    });
  }
}

/** Each store's peaks: over the whole session and over its second half. */
interface Peak {
  rows: number;
  rowsAt: number;
  bytes: number;
  bytesAt: number;
}
const peaks = new Map<string, { whole: Peak; late: Peak }>();

async function measure(name: string, store: RunStore): Promise<Map<number, RunFigures>> {
  const meter = new Meter();
  let firstCallAt: bigint | undefined;
  let checkpoints = 0;
  const model = new ScriptedModel({
    keepRequests: 1,
    respond: (request, call) => {
      if (request.system.startsWith('You compress')) {
        checkpoints += 1;
        return { text: `Checkpoint ${checkpoints}: the user asked numbered questions and got numbered answers.` };
      }
      firstCallAt ??= process.hrtime.bigint();
      return { text: `answer ${call.index + 1}` };
    },
  });
  const agent = new Agent({
    name: 'bench',
    mode: 'react',
    model,
    prompt: 'Answer.',
    store: meter.wrap(store),
    ...(WINDOW_TOKENS !== undefined ? { context: { windowTokens: WINDOW_TOKENS } } : {}),
  });
  const figures = new Map<number, RunFigures>();
  const keep = new Set<number>();
  for (const shown of SHOWN) for (let index = shown - WINDOW; index <= shown + WINDOW; index += 1) keep.add(index);
  const started = Date.now();
  /** The most one run read and sent over the whole session, and which run: the saw-tooth's peak. */
  const peak = { rows: 0, rowsAt: 0, bytes: 0, bytesAt: 0, history: 0, historyAt: 0 };
  /** The same over the second half of the session: a saw-tooth whose peak does not rise. */
  const late = { rows: 0, rowsAt: 0, bytes: 0, bytesAt: 0 };
  peaks.set(name, { whole: peak, late });
  for (let index = 1; index <= RUNS + 1; index += 1) {
    meter.rows = 0;
    meter.bytes = 0;
    meter.windowRows = 0;
    meter.windowBytes = 0;
    meter.runStartedBytes = 0;
    meter.bytesStored = 0;
    firstCallAt = undefined;
    meter.readMs = 0;
    meter.overheadMs = 0;
    driver.reset();
    const begin = process.hrtime.bigint();
    await agent
      .run({ sessionId: 'long-session', runId: `run-${String(index).padStart(6, '0')}`, input: `question ${index}` })
      .result();
    const ms = Number(process.hrtime.bigint() - begin) / 1e6 - meter.overheadMs;
    if (driver.rows > peak.rows) Object.assign(peak, { rows: driver.rows, rowsAt: index });
    if (driver.bytes > peak.bytes) Object.assign(peak, { bytes: driver.bytes, bytesAt: index });
    if (index > RUNS / 2 && driver.rows > late.rows) Object.assign(late, { rows: driver.rows, rowsAt: index });
    if (index > RUNS / 2 && driver.bytes > late.bytes) Object.assign(late, { bytes: driver.bytes, bytesAt: index });
    const sent = (model.requests.at(-1)?.messages.slice(0, -1) ?? []).reduce(
      (total, message) => total + message.content.length,
      0,
    );
    if (sent > peak.history) Object.assign(peak, { history: sent, historyAt: index });
    if (keep.has(index)) {
      const history = model.requests.at(-1)?.messages.slice(0, -1) ?? [];
      figures.set(index, {
        ms,
        rowsRead: driver.rows,
        bytesRead: driver.bytes,
        recordsRead: meter.rows,
        recordBytes: meter.bytes,
        windowRows: meter.windowRows,
        windowBytes: meter.windowBytes,
        runStartedBytes: meter.runStartedBytes,
        readMs: meter.readMs,
        startMs: Number((firstCallAt ?? begin) - begin) / 1e6,
        bytesStored: meter.bytesStored,
        historyCharacters: history.reduce((total, message) => total + message.content.length, 0),
      });
    }
    if (index % 1000 === 0) {
      process.stderr.write(
        `${name}: ${index} runs, ${checkpoints} checkpoints, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
      );
    }
  }
  console.log(`\n${name}: ${checkpoints} checkpoints in ${RUNS + 1} runs`);
  console.log(
    `${name}: most database rows read by one run ${peak.rows} (run #${peak.rowsAt}), most bytes ${peak.bytes} (run #${peak.bytesAt}), most history sent ${peak.history} chars (run #${peak.historyAt})`,
  );
  return figures;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function report(name: string, figures: Map<number, RunFigures>): void {
  const rows: string[] = [];
  for (const shown of SHOWN) {
    const one = figures.get(shown);
    if (!one) continue;
    const around: RunFigures[] = [];
    for (let index = shown - WINDOW; index <= shown + WINDOW; index += 1) {
      const figure = figures.get(index);
      if (figure) around.push(figure);
    }
    rows.push(
      [
        `#${shown.toLocaleString('en')}`.padEnd(9),
        one.ms.toFixed(1).padStart(9),
        median(around.map((figure) => figure.ms))
          .toFixed(1)
          .padStart(12),
        median(around.map((figure) => figure.readMs))
          .toFixed(1)
          .padStart(13),
        median(around.map((figure) => figure.startMs))
          .toFixed(1)
          .padStart(14),
        String(one.rowsRead).padStart(10),
        String(one.bytesRead).padStart(11),
        `${one.recordsRead} / ${one.recordBytes}`.padStart(16),
        String(one.bytesStored).padStart(13),
        String(one.runStartedBytes).padStart(18),
        String(one.historyCharacters).padStart(19),
      ].join(' '),
    );
  }
  console.log(`\n${name}`);
  console.log(
    'run        run (ms)  median ±5 ms  of it reads  start (median)  rows read  bytes read  records / bytes  bytes stored  run-started bytes  history to model (chars)',
  );
  for (const row of rows) console.log(row);
  flatness.push(...flatLines(name, figures));
}

/** Issue 34's "Done when" lines of one store, printed together at the end of the run. */
const flatness: string[] = [];
/**
 * Issue 34: a new run late in the session reads no more database rows and bytes than run #10 plus
 * the window — the journals of the history window's full runs as run #10 read them.
 */
function flatLines(name: string, figures: Map<number, RunFigures>): string[] {
  const early = figures.get(10);
  if (!early) return [];
  const targetRows = early.rowsRead + early.windowRows;
  const targetBytes = early.bytesRead + early.windowBytes;
  const lines = [
    `${name.padEnd(10)} #10: ${early.rowsRead} rows, ${early.bytesRead} bytes; window ${early.windowRows} rows, ${early.windowBytes} bytes; target ≤ ${targetRows} rows, ≤ ${targetBytes} bytes`,
  ];
  for (const shown of SHOWN.filter((index) => index > 10 && index !== RUNS)) {
    const late = figures.get(shown);
    if (!late) continue;
    const met = late.rowsRead <= targetRows && late.bytesRead <= targetBytes;
    lines.push(
      `${name.padEnd(10)} #${shown.toLocaleString('en')}: ${late.rowsRead} rows, ${late.bytesRead} bytes: ${met ? 'met' : 'not met'}`,
    );
  }
  const peak = peaks.get(name);
  if (peak) {
    const { whole, late } = peak;
    lines.push(
      `${name.padEnd(10)} saw-tooth peak (just before a checkpoint): whole session ${whole.rows} rows (#${whole.rowsAt.toLocaleString('en')}), ${whole.bytes} bytes (#${whole.bytesAt.toLocaleString('en')}); second half ${late.rows} rows (#${late.rowsAt.toLocaleString('en')}), ${late.bytes} bytes (#${late.bytesAt.toLocaleString('en')})`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const window = WINDOW_TOKENS === undefined ? 'no context window' : `context window ${WINDOW_TOKENS} tokens`;
  console.log(`one session of ${RUNS.toLocaleString('en')} runs (+1), node ${process.version}, history window 2 runs, ${window}`);
  if (STORES.includes('sqlite')) {
    const directory = mkdtempSync(join(tmpdir(), 'agentloom-bench-session-'));
    try {
      const sqlite = new SqliteRunStore({ path: join(directory, 'session.db') });
      report('SQLite', await measure('SQLite', sqlite));
      await sqlite.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  if (!STORES.includes('postgres')) return;
  if (!(await postgresAvailable())) {
    console.log('\nPostgreSQL: not measured (no server answers at AGENTLOOM_POSTGRES_URL)');
    return;
  }
  const schema = `agentloom_bench_session_${process.pid}`;
  const store = await PostgresRunStore.fromConnectionString(postgresUrl, { schema });
  try {
    report('PostgreSQL', await measure('PostgreSQL', store));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

await main();
console.log('\nissue 34, flat session reads (database rows and bytes the store read during the whole run):');
for (const line of flatness) console.log(line);
