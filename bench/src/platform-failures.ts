/**
 * The failure-side figures of `bench:platform`: how long a SIGKILLed worker's run waits before
 * another worker writes its next event, and what an idle SSE follower costs in memory.
 */
import { get, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { countsSince, installQueryCounter, queryCounts } from '../../test/support/query-counter.js';
import type { PlatformTarget, WorkerProcess } from './platform-target.js';
import { slowModelServer } from './platform-target.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 10 ms until it answers something. */
async function until<Value>(probe: () => Value | undefined | Promise<Value | undefined>): Promise<Value> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await pause(10);
  }
}

/** An OpenAI-compatible connection to the model server at `url`. */
function slowConnection(url: string) {
  return {
    name: 'Slow',
    provider: 'openai-compatible',
    baseUrl: `${url}/v1`,
    key: { label: 'main', value: 'sk-bench-slow-0123456789' },
    models: [{ modelId: 'slow' }],
  };
}

/**
 * `trials` times: starts a run whose model answers after 2 s, SIGKILLs the worker process that
 * owns it half a second in, and measures from the kill to the run's next journal entry (written
 * by the worker that took it over); a new worker process replaces the killed one. Answers ms.
 */
export async function measureTakeovers(
  target: PlatformTarget,
  workers: WorkerProcess[],
  respawn: () => Promise<WorkerProcess>,
  trials = 3,
): Promise<number[]> {
  const model = await slowModelServer(2_000);
  const { runStore, runClient } = target.platform.services;
  const takeovers: number[] = [];
  try {
    const appId = await target.publishApp('Slow agent', slowConnection(model.url), 'slow');
    for (let trial = 0; trial < trials; trial += 1) {
      const runId = await target.submit(appId, `takeover ${trial}`);
      const owner = await until(() => workers.find((worker) => worker.owned.has(runId)));
      await pause(500);
      const killedAt = performance.now();
      owner.child.kill('SIGKILL');
      await owner.exited;
      const last = (await runStore.readJournal(runId)).at(-1)?.sequence ?? 0;
      await until(async () => ((await runStore.readJournal(runId, { afterSequence: last })).length > 0 ? true : undefined));
      takeovers.push(performance.now() - killedAt);
      workers.splice(workers.indexOf(owner), 1, await respawn());
      await until(async () => {
        const { status } = await runClient.describeRun(runId);
        return status === 'pending' || status === 'running' ? undefined : status;
      });
    }
  } finally {
    await model.close();
  }
  return takeovers;
}

/** What idle SSE followers cost: memory per stream, and the statements the process ran while they waited. */
export interface IdleFollowerFigures {
  kibPerFollower: number;
  /** Statements (all connections of this process) per second over the idle window. */
  queriesPerSecond: number;
  /** SQLite `PRAGMA data_version` reads per second (shared memory, no table read; ADR 0025). */
  dataVersionPerSecond: number;
  windowSeconds: number;
}

/** How long the idle followers are watched for statements. */
const IDLE_WINDOW_MS = 5_000;

/** The memory JavaScript objects hold: the heap in use and what they keep outside it. */
function heldMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/**
 * Opens `count` SSE streams on one queued run that no worker will take (call it with no worker
 * running), so every stream stays open and idle, and answers the growth of this process's
 * memory per stream, in KiB — the JavaScript heap plus memory held outside it for JavaScript
 * objects (`heapUsed + external`), each read after a garbage collection when `--expose-gc` allows
 * one (not the resident set: after the burst before it, the allocator hands freed pages back to
 * the system at its own pace, so the resident set could shrink while the streams opened, and the
 * figure once came out negative); and the statements this process executed over `IDLE_WINDOW_MS`
 * once the streams settled (`query-counter.ts`; install it first). Server and clients share this process, so the memory
 * figure is an upper bound of the server's cost. The followers' own safety-net read (once a
 * minute each, `followerSafetyNetMs`) is counted when it falls in the window.
 */
export async function measureIdleFollowers(target: PlatformTarget, appId: string, count: number): Promise<IdleFollowerFigures> {
  const { runClient } = target.platform.services;
  const agent = new HttpAgent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const responses: IncomingMessage[] = [];
  const runId = await target.submit(appId, 'idle followers');
  try {
    const collect = () => (globalThis as { gc?: () => void }).gc?.();
    collect();
    await pause(200);
    const before = heldMemory();
    const url = `${target.base}/runs/${runId}/events`;
    for (let index = 0; index < count; index += 50) {
      await Promise.all(
        Array.from(
          { length: Math.min(50, count - index) },
          () =>
            new Promise<void>((resolve, reject) => {
              get(url, { agent, headers: { authorization: target.authorization } }, (response) => {
                responses.push(response);
                if (response.statusCode !== 200) reject(new Error(`SSE answered ${response.statusCode}`));
                else resolve();
              }).once('error', reject);
            }),
        ),
      );
    }
    await pause(2_000);
    collect();
    await pause(200);
    const after = heldMemory();
    // Installed only now: its wrapper around every statement would otherwise weigh on the
    // throughput rows measured before (5 % of the API's CPU in a profile). It wraps the
    // prototypes every connection shares, so connections opened earlier are counted too.
    installQueryCounter();
    const counted = queryCounts();
    const windowStart = performance.now();
    await pause(IDLE_WINDOW_MS);
    const windowSeconds = (performance.now() - windowStart) / 1000;
    const idle = countsSince(counted);
    const open = responses.filter((response) => !response.complete).length;
    if (open !== count) throw new Error(`only ${open} of ${count} SSE streams stayed open`);
    return {
      kibPerFollower: (after - before) / count / 1024,
      queriesPerSecond: (idle.sqlite + idle.postgres) / windowSeconds,
      dataVersionPerSecond: idle.dataVersion / windowSeconds,
      windowSeconds,
    };
  } finally {
    for (const response of responses) response.destroy();
    agent.destroy();
    await runClient.requestStop(runId, { reason: 'bench over', requestedBy: 'bench' }).catch(() => {});
  }
}
