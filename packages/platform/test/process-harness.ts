import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import pg from 'pg';
import { agentloomBin, ensureBuilt } from '../../../test/support/built-cli.js';
import type { Platform } from '../src/platform.js';
import { postgresUrl, TestClient, testOutboundAllow } from './harness.js';

/**
 * A platform process started with the built `agentloom` command (`bin/agentloom.js`, which runs
 * `dist/` in its own process), so SIGTERM drains exactly it and SIGKILL kills exactly it.
 */
export interface PlatformProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output matches. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `agentloom <command>` with the given environment (outbound requests allowed to `testOutboundAllow` unless it says otherwise). */
export function startProcess(
  command: 'serve' | 'worker',
  environment: Record<string, string>,
  extra: string[] = [],
): PlatformProcess {
  ensureBuilt();
  const child = spawn(process.execPath, [agentloomBin, command, ...extra], {
    env: { ...process.env, AGENTLOOM_OUTBOUND_ALLOW: testOutboundAllow, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    text += String(chunk);
  });
  return {
    child,
    output: () => text,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const check = setInterval(() => {
          const match = pattern.exec(text);
          if (match) {
            clearInterval(check);
            resolve(match);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearInterval(check);
            reject(new Error(`the process exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${text}`));
          }
        }, 50);
      });
    },
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** Runs a one-shot CLI command (e.g. `create-admin`) to completion. */
export function runCommand(args: string[], environment: Record<string, string>): { status: number | null; output: string } {
  ensureBuilt();
  const result = spawnSync(process.execPath, [agentloomBin, ...args], {
    env: { ...process.env, AGENTLOOM_OUTBOUND_ALLOW: testOutboundAllow, ...environment },
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A `TestClient` that talks to a real server over HTTP instead of `app.request`. */
export function httpClient(baseUrl: string): TestClient {
  const transport = { app: { request: (path: string, init: RequestInit) => fetch(`${baseUrl}${path}`, init) } };
  return new TestClient(transport as unknown as Platform);
}

/**
 * Reads a run's SSE stream over HTTP until `stopAfter` says so or the stream ends; answers the
 * event ids read. Aborting mid-stream is how the tests play a client whose connection dropped.
 */
export async function readEventIds(
  baseUrl: string,
  headers: Record<string, string>,
  runId: string,
  lastEventId: string | undefined,
  stopAfter: (ids: number[]) => boolean = () => false,
): Promise<{ ids: number[]; types: string[]; ended: boolean }> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/runs/${runId}/events`, {
    headers: { ...headers, ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) },
    signal: abort.signal,
  });
  if (!response.body) throw new Error(`no stream: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const ids: number[] = [];
  const types: string[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { ids, types, ended: true };
      buffer += decoder.decode(value, { stream: true });
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const id = /^id: ?(\d+)$/m.exec(block)?.[1];
        const type = /^event: ?(.+)$/m.exec(block)?.[1];
        if (id !== undefined) {
          ids.push(Number(id));
          types.push(type ?? '');
          if (stopAfter(ids)) {
            abort.abort();
            return { ids, types, ended: false };
          }
        }
        boundary = buffer.indexOf('\n\n');
      }
    }
  } catch (error) {
    if (abort.signal.aborted) return { ids, types, ended: false };
    throw error;
  }
}

/**
 * A fresh PostgreSQL schema for platform processes of one test file: the environment that points
 * `agentloom serve`/`worker` at it (API only, no demo, a short lease), and `drop` for its schemas
 * (the platform's, its SDK store's) afterwards.
 */
export function postgresProcessEnvironment(label: string, dataDirectory: string) {
  const schema = `${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  const environment = {
    AGENTLOOM_DATA_DIR: dataDirectory,
    AGENTLOOM_DATABASE_URL: url.toString(),
    AGENTLOOM_SECRET_KEY: `${label}-secret-key-that-is-long-enough-0123456789`,
    AGENTLOOM_EMBEDDED_WORKERS: '0',
    AGENTLOOM_RUN_LEASE_MS: '1500',
    AGENTLOOM_SEED_DEMO: 'false',
    AGENTLOOM_LOG_LEVEL: 'warn',
    INIT_CWD: dataDirectory,
  };
  const drop = async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.query(`drop schema if exists "${schema}_runs" cascade`);
    await client.end();
  };
  return { environment, drop };
}
