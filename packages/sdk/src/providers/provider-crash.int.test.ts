/**
 * A process killed while a real adapter is mid-stream (SIGKILL, over real sockets): the resumed
 * run re-issues the interrupted model call with the same context, never re-executes the tools
 * whose results were saved, and does not charge the loop again. The run is resumed in
 * the test process itself, from the same SQLite file, which keeps the test to one child process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledScript } from '../../test/helpers/child-process.js';
import { RunOwnedElsewhereError } from '../core/errors/index.js';
import type { RunResult } from '../core/run-result.js';
import type { Agent } from '../engine/agent/agent.js';
import { SqliteRunStore } from '../store/sqlite/sqlite-run-store.js';
import { createAnthropic } from './anthropic/anthropic-provider.js';
import { createOpenAICompatible } from './openai-compatible/openai-compatible-provider.js';
import { readHttpFixture } from './testing/http-fixture.js';
import { type ReplayServer, startReplayServer } from './testing/replay-server.js';
import { weatherAgent } from './testing/weather-task.js';

const childScript = fileURLToPath(new URL('./testing/provider-crash-child.ts', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'agentloom-provider-crash-'));
const servers: ReplayServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(directory, { recursive: true, force: true });
});

interface ChildReport {
  results: Map<string, RunResult>;
  toolCalls: Map<string, number>;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the child; `kill` receives a function that SIGKILLs it. */
function runChild(environment: Record<string, string>, kill?: (killChild: () => void) => void): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundledScript(childScript)], {
      env: { ...process.env, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    kill?.(() => child.kill('SIGKILL'));
    const report: ChildReport = { results: new Map(), toolCalls: new Map(), signal: null, stderr: '' };
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      report.stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      for (const line of output.split('\n')) {
        const [tag, provider = '', ...rest] = line.split(' ');
        if (tag === 'RESULT') report.results.set(provider, JSON.parse(rest.join(' ')) as RunResult);
        if (tag === 'TOOL-CALLS') report.toolCalls.set(provider, Number(rest[0]));
      }
      report.signal = signal;
      resolve(report);
    });
  });
}

const providers = ['openai-compatible', 'anthropic'] as const;

/** Resumes a run, waiting out the killed owner's lease (R-2: a live owner is never preempted). */
async function resume(agent: Agent, sessionId: string, runId: string): Promise<RunResult> {
  for (;;) {
    try {
      return await agent.run({ sessionId, runId }).result();
    } catch (error) {
      if (!RunOwnedElsewhereError.isInstance(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, error.leaseExpiresAt - Date.now() + 10)));
    }
  }
}

describe('a crash in the middle of a real model stream', () => {
  it('re-issues the interrupted model call on resume without charging another loop, for both adapters', async () => {
    let killChild = () => {};
    const stalled = new Set<string>();
    const onStall = (provider: string) => () => {
      stalled.add(provider);
      if (stalled.size === providers.length) killChild();
    };
    for (const provider of providers) {
      const fixture = (name: string) => readHttpFixture(new URL(`./${provider}/__fixtures__/${name}.http`, import.meta.url));
      servers.push(
        await startReplayServer([
          { fixture: fixture('parallel-tool-calls') },
          { fixture: fixture('weather-answer'), stallAfterEvents: 5, onStall: onStall(provider) },
          { fixture: fixture('weather-answer') },
        ]),
      );
    }
    const [openai, anthropic] = servers as [ReplayServer, ReplayServer];
    const environment = {
      CRASH_STORE: join(directory, 'runs.db'),
      CRASH_OPENAI_URL: openai.baseURL,
      CRASH_ANTHROPIC_URL: anthropic.baseURL,
      CRASH_RUN_PREFIX: 'provider-crash',
    };

    const killed = await runChild(environment, (kill) => {
      killChild = kill;
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.results.size).toBe(0);

    // Resume in this process, from the same SQLite file: a new owner, as after a machine failure.
    const store = new SqliteRunStore({ path: environment.CRASH_STORE });
    try {
      for (const [index, provider] of providers.entries()) {
        const server = servers[index] as ReplayServer;
        const model =
          provider === 'anthropic'
            ? createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL })('claude-sonnet-4-6')
            : createOpenAICompatible({ apiKey: 'test-key', baseURL: `${server.baseURL}/v1` })('gpt-5.4-mini');
        // A lease the loaded test process can renew in time; the killed child's own lease is waited out in `resume`.
        const { agent, calls } = weatherAgent(model, { store, leaseMs: 2_000 });
        const result = await resume(agent, `crash-${provider}`, `${environment.CRASH_RUN_PREFIX}-${provider}`);
        expect(result).toMatchObject({ status: 'succeeded', output: 'It is 18 °C in Paris and 22 °C in Tokyo.', loops: 2 });
        // The tools ran in the killed process; their saved results are reused, not redone.
        expect(calls).toEqual([]);
        await Promise.all(server.requests.map((request) => request.settled));
        expect(server.requests.map((request) => request.outcome)).toEqual(['complete', 'closed-by-client', 'complete']);
        // The same model call, re-issued with exactly the same context: the saved tool results included.
        expect(JSON.stringify(server.requests[1]?.body)).toContain('18 °C');
        expect(server.requests[2]?.body).toEqual(server.requests[1]?.body);
      }
    } finally {
      await store.close();
    }
  });
});
