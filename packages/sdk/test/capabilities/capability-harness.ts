/**
 * Shared helpers of the capability integration tests: the real MCP servers installed from npm,
 * a streamable HTTP server process on a free port, child processes that print tagged lines, and
 * a tool context for calling tools directly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool, ToolExecutionContext } from '../../src/capabilities/tools/tool.js';
import { spawnTestScript } from '../helpers/child-process.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The entry script of `@modelcontextprotocol/server-everything`. */
export const everythingServer = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
/** The entry script of `@modelcontextprotocol/server-filesystem`. */
export const filesystemServer = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);
/** The `node_modules` folder holding both servers and their dependencies (mounted read-only in sandboxes). */
export const nodeModules = join(dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), '..', '..');

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts server-everything in streamable HTTP mode as a child process; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingServer, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${output}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, stop };
}

/** Pids of processes whose command line contains `marker` (to find servers a killed process left). */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) pids.push(Number(name));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

/** Kills every process whose command line contains `marker`. */
export function killProcessesWith(marker: string): void {
  for (const pid of processesWith(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** A tool context as the engine builds it, for calling tools directly. */
export function toolContext(overrides: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    runId: 'run-1',
    sessionId: 'session-1',
    taskId: 'task-1',
    operationId: `operation-${Math.random().toString(36).slice(2)}`,
    attempt: 1,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Calls a tool as the engine does (arguments validated first); resolves to its result or rejects with its error. */
export async function callTool(tools: readonly Tool[], name: string, args: unknown, context = toolContext()): Promise<unknown> {
  const found = tools.find((item) => item.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found.execute(found.parameters.parse(args), context);
}

/** What a child process printed, line by line, keyed by its tag (`TAG rest`). */
export interface ChildRun {
  lines: string[];
  exitSignal: NodeJS.Signals | null;
  exitCode: number | null;
  stderr: string;
}

/**
 * Runs a TypeScript child script of this folder; when a printed line starts with `killOn`, the
 * child is killed with SIGKILL right there (it blocks itself after printing it).
 */
export async function runTestChild(script: string, env: Record<string, string>, killOn?: string): Promise<ChildRun> {
  const lines: string[] = [];
  const exit = await spawnTestScript(join(here, script), env, (line, kill) => {
    lines.push(line);
    if (killOn !== undefined && line.startsWith(killOn)) kill();
  });
  return { lines, ...exit };
}

/** The rest of the first line tagged `tag`, parsed as JSON when `json` is set. */
export function tagged<T = string>(run: ChildRun, tag: string, json = false): T | undefined {
  const line = run.lines.find((candidate) => candidate.startsWith(`${tag} `));
  if (line === undefined) return undefined;
  const rest = line.slice(tag.length + 1);
  return (json ? JSON.parse(rest) : rest) as T;
}
