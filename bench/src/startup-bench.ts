/**
 * `npm run bench:startup` (issue 29): how long `agentloom` takes to be ready, the built command
 * (`packages/platform/bin/agentloom.js`: `dist/` in its own process) side by side with the launcher
 * it replaced (`src/startup/tsx-launcher.js`: a child compiling the TypeScript sources with tsx at
 * every start), measured in the same run, alternating. Figures, not a test.
 *
 * - `serve`, first start: a fresh SQLite data directory (secret key generated, migrations, admin,
 *   demo seeded), from the spawn to the first `/healthz` 200;
 * - `serve`, restart: the same, on a data directory that already exists;
 * - `npm start`, restart: the root script (a build check, then `agentloom serve`); today's ran
 *   `node --import tsx src/cli/main.ts serve` as an npm script, here run through `npm exec`;
 * - `worker` (when PostgreSQL answers): from the spawn to its "ready" line, on a migrated schema.
 *
 * One warm-up start of each kind (not counted: file caches, tsx's own cache), then the median of
 * `--repeats N` rounds (default 5), every kind started both ways in each round. Target: ready in under 2 s. Besides the wall time, the CPU time the
 * started processes used until ready (their process group, from `/proc`): on a busy machine the
 * wall time stretches, the CPU time much less. The load average is printed with the table.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { agentloomBin, ensureBuilt } from '../../test/support/built-cli.js';
import { postgresAvailable, postgresUrl } from './workflow-stores.js';

const TARGET_MS = 2_000;
const { values } = parseArgs({ options: { repeats: { type: 'string', default: '5' } } });
const repeats = Number(values.repeats);
const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const tsxLauncher = fileURLToPath(new URL('./startup/tsx-launcher.js', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-bench-startup-'));
const baseEnvironment = {
  ...process.env,
  AGENTLOOM_SECRET_KEY: '',
  AGENTLOOM_DATABASE_URL: '',
  AGENTLOOM_CONSOLE_DIR: '',
  AGENTLOOM_LOG_LEVEL: 'warn',
};

/** How one variant starts a command: the program and arguments before the command's own. */
type Launch = (args: string[]) => { command: string; args: string[]; cwd?: string };
const built: Launch = (args) => ({ command: process.execPath, args: [agentloomBin, ...args] });
const launcher: Launch = (args) => ({ command: process.execPath, args: [tsxLauncher, ...args] });
const npmStartBuilt: Launch = (args) => ({
  command: 'npm',
  args: ['start', '--silent', '--', ...args.slice(1)],
  cwd: repositoryRoot,
});
const npmStartTsx: Launch = (args) => ({
  command: 'npm',
  args: ['exec', '--silent', '--call', `node --conditions=@agentloom/source --import tsx src/cli/main.ts ${args.join(' ')}`],
  cwd: path.join(repositoryRoot, 'packages/platform'),
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Ends a started process and everything in its group (npm and its children), and waits for it. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-(child.pid as number), 'SIGTERM');
  await exited;
}

const clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU ms used so far by the processes of group `group`, with the children they already reaped. */
function groupCpuMs(group: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended while we looked
    }
    // After "pid (name) ": state, ppid, pgrp, … utime, stime, cutime, cstime are fields 11–14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === group) ticks += [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  }
  return (ticks * 1000) / clockTicksPerSecond;
}

/** One start: wall ms from the spawn until ready, and the CPU ms its processes used by then. */
interface Start {
  wallMs: number;
  cpuMs: number;
}

/** Spawns the launch in its own process group; resolves once `ready` says so. */
async function timeStart(
  launch: ReturnType<Launch>,
  environment: NodeJS.ProcessEnv,
  ready: (child: ChildProcess, output: () => string) => Promise<boolean>,
): Promise<Start> {
  const started = performance.now();
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd ?? repositoryRoot,
    env: environment,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  try {
    while (!(await ready(child, () => output))) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { wallMs: performance.now() - started, cpuMs: groupCpuMs(child.pid as number) };
  } finally {
    await stop(child);
  }
}

/** `serve` on `dataDirectory` (a fresh one when omitted): ms until `/healthz` answers 200. */
async function serveStart(launch: Launch, dataDirectory?: string): Promise<Start> {
  const port = await freePort();
  const directory = dataDirectory ?? mkdtempSync(path.join(scratch, 'data-'));
  const args = ['serve', '--port', String(port), '--data-dir', directory];
  const healthy = () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
  try {
    return await timeStart(launch(args), { ...baseEnvironment, INIT_CWD: directory }, healthy);
  } finally {
    if (!dataDirectory) rmSync(directory, { recursive: true, force: true });
  }
}

/** `worker` on a migrated PostgreSQL schema: ms until it prints that it is ready. */
function workerStart(launch: Launch, databaseUrl: string): Promise<Start> {
  const environment = { ...baseEnvironment, AGENTLOOM_DATABASE_URL: databaseUrl, AGENTLOOM_SECRET_KEY: 'x'.repeat(40) };
  return timeStart(launch(['worker']), environment, async (_child, output) => output().includes(' ready (pid'));
}

interface Row {
  name: string;
  today: Start[];
  built: Start[];
}

/** What a row starts: today's way and the built one. */
interface Kind {
  name: string;
  today: () => Promise<Start>;
  built: () => Promise<Start>;
}

/**
 * One warm-up of each, then `repeats` rounds; each round starts every kind today's way and the
 * built way in turn, so that a busy spell of the shared machine falls on every row alike.
 */
async function measure(kinds: Kind[]): Promise<Row[]> {
  for (const kind of kinds) {
    await kind.today();
    await kind.built();
  }
  const rows: Row[] = kinds.map((kind) => ({ name: kind.name, today: [], built: [] }));
  for (let round = 0; round < repeats; round += 1) {
    for (const [index, kind] of kinds.entries()) {
      rows[index]?.today.push(await kind.today());
      rows[index]?.built.push(await kind.built());
    }
    process.stderr.write(`round ${round + 1} of ${repeats} done\n`);
  }
  return rows;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const seconds = (ms: number) => (ms / 1000).toFixed(2);
/** "wall median (min–max) / CPU median", in seconds. */
const format = (starts: Start[]) => {
  const walls = starts.map((start) => start.wallMs);
  return `${seconds(median(walls))} (${seconds(Math.min(...walls))}–${seconds(Math.max(...walls))}) / ${seconds(median(starts.map((start) => start.cpuMs)))}`;
};
const medianWall = (starts: Start[]) => median(starts.map((start) => start.wallMs));

let rows: Row[] = [];
const loadBefore = loadavg()[0] as number;
let schema: string | undefined;
try {
  ensureBuilt();
  const existing = mkdtempSync(path.join(scratch, 'existing-'));
  await serveStart(built, existing);
  const kinds: Kind[] = [
    { name: 'agentloom serve, first start (SQLite)', today: () => serveStart(launcher), built: () => serveStart(built) },
    {
      name: 'agentloom serve, restart (SQLite)',
      today: () => serveStart(launcher, existing),
      built: () => serveStart(built, existing),
    },
    {
      name: 'npm start, restart (SQLite)',
      today: () => serveStart(npmStartTsx, existing),
      built: () => serveStart(npmStartBuilt, existing),
    },
  ];
  if (await postgresAvailable()) {
    schema = `bench_startup_${process.pid}`;
    const url = new URL(postgresUrl);
    url.searchParams.set('schema', schema);
    const databaseUrl = url.toString();
    const migrate = spawn(process.execPath, [agentloomBin, 'migrate'], {
      env: { ...baseEnvironment, AGENTLOOM_DATABASE_URL: databaseUrl, AGENTLOOM_SECRET_KEY: 'x'.repeat(40) },
      stdio: 'ignore',
    });
    await new Promise((resolve) => migrate.once('exit', resolve));
    kinds.push({
      name: 'agentloom worker (PostgreSQL)',
      today: () => workerStart(launcher, databaseUrl),
      built: () => workerStart(built, databaseUrl),
    });
  } else {
    console.log('PostgreSQL is not reachable: the worker row is left out.');
  }
  rows = await measure(kinds);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  if (schema) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    for (const name of [schema, `${schema}_runs`, `${schema}_pgboss`])
      await client.query(`drop schema if exists "${name}" cascade`);
    await client.end();
  }
}

const width = Math.max(...rows.map((row) => row.name.length)) + 2;
console.log(
  `\nstart-up until ready, seconds: wall median (min–max) / CPU median, of ${repeats} starts after a warm-up; ` +
    `node ${process.version}, load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] as number).toFixed(1)}`,
);
console.log(`${'what'.padEnd(width)}${'today: tsx launcher'.padEnd(28)}${'built'.padEnd(28)}speed-up  target  met`);
for (const row of rows) {
  const met = medianWall(row.built) < TARGET_MS;
  console.log(
    `${row.name.padEnd(width)}${format(row.today).padEnd(28)}${format(row.built).padEnd(28)}` +
      `${`×${(medianWall(row.today) / medianWall(row.built)).toFixed(1)}`.padEnd(10)}< ${TARGET_MS / 1000} s   ${met ? 'yes' : 'NO'}`,
  );
}
const allMet = rows.every((row) => medianWall(row.built) < TARGET_MS);
console.log(allMet ? 'every target met' : 'a target was missed');
