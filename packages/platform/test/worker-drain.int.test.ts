import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { innerRunIdOf } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, postgresUrl, type TestClient } from './harness.js';
import { httpClient, type PlatformProcess, runCommand, startProcess } from './process-harness.js';
import {
  buildTrialApps,
  startTrialRun,
  type TrialFixture,
  type TrialRun,
  trialExecution,
  trialWorkflowTasks,
} from './takeover-fixture.js';
import { LedgerToolServer, TrialModelServer } from './takeover-servers.js';

/**
 * Draining a worker (PLATFORM.md §4.4 `POST /admin/workers/:id/drain`, §4.2 S5) with real
 * `agentloom worker` processes on PostgreSQL: a ReAct run is in flight on worker A (its second
 * tool call held by the test's tool server), A is drained — over HTTP, and separately by SIGTERM —
 * and the run finishes on worker B with the same run id, every tool executed once (by a ledger
 * outside the SDK store), input once, budget and deadline of its first start. The SDK lease and
 * the job lease are 10 minutes, so the run could only move within the test's time if A really
 * handed it over. A workflow run is handed over the same way on SIGTERM, with the inner run of its
 * unfinished agent node in flight (its lease is 10 minutes too): B continues that inner run and
 * never reruns the agent node that had finished.
 */
const password = 'correct horse battery staple';
const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-drain-'));
const processes: PlatformProcess[] = [];
let model: TrialModelServer;
let tool: LedgerToolServer;

beforeAll(async () => {
  model = await new TrialModelServer().start();
  tool = await new LedgerToolServer(path.join(scratch, 'ledger.jsonl')).start();
});
afterAll(async () => {
  await Promise.all(processes.map((item) => item.kill('SIGKILL')));
  await model?.close();
  await tool?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the exit code once the process has exited. */
function exitOf(worker: PlatformProcess): Promise<number | null> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return Promise.resolve(worker.child.exitCode);
  return new Promise((resolve) => worker.child.once('exit', (code) => resolve(code)));
}

describe.skipIf(!dialects.includes('postgres'))('draining an `agentloom worker` on PostgreSQL', () => {
  const schema = `drain_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  const dataDirectory = path.join(scratch, 'data');
  const environment = {
    AGENTLOOM_DATA_DIR: dataDirectory,
    AGENTLOOM_DATABASE_URL: url.toString(),
    AGENTLOOM_SECRET_KEY: 'drain-test-secret-key-that-is-long-enough-0123',
    AGENTLOOM_RUN_LEASE_MS: '600000',
    AGENTLOOM_EMBEDDED_WORKERS: '0',
    AGENTLOOM_WORKER_CONCURRENCY: '4',
    AGENTLOOM_SEED_DEMO: 'false',
    AGENTLOOM_LOG_LEVEL: 'warn',
    INIT_CWD: dataDirectory,
  };
  let client: TestClient;
  let fixture: TrialFixture;
  let store: PostgresRunStore;

  beforeAll(async () => {
    mkdirSync(dataDirectory, { recursive: true });
    const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
    expect(created.status, created.output).toBe(0);
    const api = startProcess('serve', environment, ['--port', '0']);
    processes.push(api);
    const baseUrl = (await api.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    client = await httpClient(baseUrl).login('ops@example.com', password);
    // A tool call is held in flight while a worker starts and the drain is seen (a heartbeat):
    // its timeout must not end it first.
    fixture = await buildTrialApps(client, model.url, tool.url, { ...trialExecution, toolTimeoutMs: 300_000 });
    store = new PostgresRunStore({ connectionString: postgresUrl, schema: `${schema}_runs` });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    const database = new pg.Client({ connectionString: postgresUrl });
    await database.connect();
    await database.query(`drop schema if exists "${schema}" cascade`);
    await database.query(`drop schema if exists "${schema}_runs" cascade`);
    await database.end();
  });

  /** Starts a worker and answers it with its id once it is ready. */
  async function startWorker(): Promise<{ worker: PlatformProcess; id: string }> {
    const worker = startProcess('worker', environment);
    processes.push(worker);
    const id = (await worker.waitFor(/AgentLoom worker (\S+) ready/))[1] as string;
    return { worker, id };
  }

  /**
   * Starts a ReAct run while only `owner` works, and holds its `step 2` tool call in flight there.
   * Answers the run and the function that lets the held call answer.
   */
  async function runHeldOn(owner: PlatformProcess, tag: string): Promise<{ run: TrialRun; release: () => void }> {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      reached = resolve;
    });
    tool.hold = async (query) => {
      if (query !== `[t:${tag}] step 2`) return;
      reached();
      await held;
    };
    const run = await startTrialRun(client, fixture, 'react', tag);
    await owner.waitFor(new RegExp(`run ${run.runId} owner `));
    await inFlight;
    return { run, release };
  }

  /** Waits for the run's end through the API; answers its view. */
  async function ended(runId: string) {
    for (;;) {
      const response = await client.request('GET', `/runs/${runId}`);
      expect(response.status).toBe(200);
      const { run } = response.body as { run: { status: string; output: string | null; loops: number } };
      if (['succeeded', 'failed', 'stopped'].includes(run.status)) return run;
      await pause(200);
    }
  }

  /** The checks every handed-over run must pass: finished on `taker`, nothing redone, limits kept. */
  async function checkHandedOver(run: TrialRun, taker: { worker: PlatformProcess; id: string }) {
    const view = await ended(run.runId);
    expect(view).toMatchObject({ status: 'succeeded', output: run.expectedOutput, loops: 3 });
    expect(taker.worker.output()).toMatch(new RegExp(`run ${run.runId} owner \\S+ worker ${taker.id}`));
    const executions = tool.executions();
    for (const step of ['step 1a', 'step 1b', 'step 2']) expect(executions.get(`[t:${run.tag}] ${step}`), step).toBe(1);
    const journal = await store.readJournal(run.runId);
    const started = journal.filter((entry) => entry.type === 'run-started');
    expect(started).toHaveLength(1);
    // Two owners from the start on: worker A (the epoch that started the run) and B, the next;
    // epochs never go back, so nothing of A's landed after B took over.
    const first = started[0]?.epoch as number;
    const fromStart = journal.filter((entry) => entry.sequence >= (started[0]?.sequence ?? 0));
    expect(new Set(fromStart.map((entry) => entry.epoch))).toEqual(new Set([first, first + 1]));
    expect(fromStart.every((entry, index) => index === 0 || entry.epoch >= (fromStart[index - 1]?.epoch ?? 0))).toBe(true);
    expect(journal.filter((entry) => entry.type === 'attempt-started')).toHaveLength(3);
    expect(journal.some((entry) => JSON.stringify(entry.data ?? null).includes('unknown-outcome'))).toBe(false);
    // The held call's result was saved by the worker that let go, before the hand-over.
    const stepTwo = journal.find(
      (entry) =>
        entry.type === 'operation-finished' && JSON.stringify(entry.data).includes('found [t:'.concat(run.tag, '] step 2')),
    );
    expect(stepTwo?.epoch).toBe(first);
    const data = started[0]?.data as { deadlineAt: number; execution: { maxLoops: number } };
    expect(data.execution.maxLoops).toBe(40);
    // One `run-started` holds the deadline and budget of the first start; the taker folds the same
    // record, and the run's loops (3) continued A's count instead of starting over.
    expect(data.deadlineAt).toBeGreaterThan(0);
  }

  async function workerStates(): Promise<Map<string, string>> {
    const response = await client.request('GET', '/admin/workers');
    expect(response.status).toBe(200);
    const { workers } = response.body as { workers: Array<{ id: string; state: string }> };
    return new Map(workers.map((item) => [item.id, item.state]));
  }

  let spare: { worker: PlatformProcess; id: string } | undefined;

  it('drained over HTTP, worker A hands its run to worker B at once and ends gone', { timeout: 120_000 }, async () => {
    const a = await startWorker();
    const { run, release } = await runHeldOn(a.worker, 'drain-http');
    const b = await startWorker();
    spare = b;
    const drained = await client.request('POST', `/admin/workers/${a.id}/drain`);
    expect(drained.status, JSON.stringify(drained.body)).toBe(202);
    // A sees the request at its next heartbeat and starts handing over; the held call then
    // settles within the bound and is saved by A.
    await a.worker.waitFor(/draining: handing over 1 runs/);
    release();
    expect(await exitOf(a.worker)).toBe(0);
    await checkHandedOver(run, b);
    const states = await workerStates();
    expect(states.get(a.id)).toBe('gone');
    expect(states.get(b.id)).toBe('active');
  });

  it('on SIGTERM, worker A hands its run to worker B at once', { timeout: 120_000 }, async () => {
    // The previous case's B drains too (nothing to hand over), so the next run starts on A.
    if (spare) {
      await spare.worker.kill('SIGTERM');
      expect(spare.worker.child.exitCode).toBe(0);
    }
    const a = await startWorker();
    const { run, release } = await runHeldOn(a.worker, 'drain-sigterm');
    const b = await startWorker();
    const exited = exitOf(a.worker);
    a.worker.child.kill('SIGTERM');
    await a.worker.waitFor(/draining: handing over 1 runs/);
    release();
    expect(await exited).toBe(0);
    await checkHandedOver(run, b);
    const states = await workerStates();
    expect(states.get(a.id)).toBe('gone');
    if (spare) expect(states.get(spare.id)).toBe('gone');
    await b.worker.kill('SIGTERM');
  });

  it('on SIGTERM during a workflow run, worker A hands over the workflow and its unfinished agent node; B continues both at once (R-6)', {
    timeout: 120_000,
  }, async () => {
    const a = await startWorker();
    const tag = 'drain-workflow';
    // The Plan–Executor node's first researcher call is held on A while the ReAct node finishes.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      reached = resolve;
    });
    tool.hold = async (query) => {
      if (query !== `[t:${tag}] alpha part 1`) return;
      reached();
      await held;
    };
    const run = await startTrialRun(client, fixture, 'workflow', tag);
    await a.worker.waitFor(new RegExp(`run ${run.runId} owner `));
    await inFlight;
    const research = innerRunIdOf(run.runId, trialWorkflowTasks.research);
    const plan = innerRunIdOf(run.runId, trialWorkflowTasks.plan);
    for (;;) {
      if ((await store.getRun(research))?.status === 'succeeded') break;
      await pause(100);
    }
    const researchBefore = await store.readJournal(research);
    const b = await startWorker();
    const exited = exitOf(a.worker);
    a.worker.child.kill('SIGTERM');
    await a.worker.waitFor(/draining: handing over 1 runs/);
    release();
    expect(await exited).toBe(0);

    const view = await ended(run.runId);
    expect(view.status).toBe('succeeded');
    expect(b.worker.output()).toMatch(new RegExp(`run ${run.runId} owner \\S+ worker ${b.id}`));
    // Every tool call ran once: the agents' inner calls and the workflow's own tool node.
    const executions = tool.executions();
    const queries = [...executions.entries()].filter(([query]) => query.startsWith(`[t:${tag}] `));
    expect(queries.map(([, count]) => count)).toEqual(Array.from({ length: 8 }, () => 1));
    // The workflow went from A to B once, in order; its input and deadline recorded once.
    const journal = await store.readJournal(run.runId);
    expect(journal.filter((entry) => entry.type === 'workflow-started')).toHaveLength(1);
    const epochs = journal.filter((entry) => entry.type !== 'run-requested').map((entry) => entry.epoch);
    expect(new Set(epochs).size).toBe(2);
    expect(epochs.every((epoch, index) => index === 0 || epoch >= (epochs[index - 1] as number))).toBe(true);
    // The finished agent node was not run again; the unfinished one continued its own inner run,
    // the held call's result saved by A before it let go, nothing unknown for B.
    expect(await store.readJournal(research)).toEqual(researchBefore);
    const planJournal = await store.readJournal(plan);
    expect(planJournal.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
    const planEpochs = [...new Set(planJournal.map((entry) => entry.epoch))];
    expect(planEpochs).toHaveLength(2);
    const heldResult = planJournal.find(
      (entry) => entry.type === 'operation-finished' && JSON.stringify(entry.data).includes(`found [t:${tag}] alpha part 1`),
    );
    expect(heldResult?.epoch).toBe(planEpochs[0]);
    expect(planJournal.some((entry) => JSON.stringify(entry.data ?? null).includes('unknown-outcome'))).toBe(false);
    expect(journal.filter((entry) => entry.type === 'agent-invoked')).toHaveLength(2);
    expect((await workerStates()).get(a.id)).toBe('gone');
    await b.worker.kill('SIGTERM');
  });
});
