import { RunClient } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsSince, installQueryCounter, queryCounts } from '../../../test/support/query-counter.js';
import { runStoreSchemaOf } from '../src/adapters/database/open-run-store.js';
import type { Dispatcher } from '../src/adapters/dispatch/index.js';
import { createPlatform, type Platform } from '../src/platform.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { parseSse, untilQuiet, waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

installQueryCounter();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An idle poll no test outlives: a run claimed in a test was claimed on a wake-up. */
const noIdlePoll = 600_000;
const followers = 20;
/** How long idle followers are watched for statements. */
const idleWindowMs = 5_500;

/** Counts the claims `dispatcher` makes from now on (every worker of the process shares the instance). */
function countClaims(dispatcher: Dispatcher): { readonly claims: number; readonly settled: number } {
  const counter = { claims: 0, settled: 0 };
  const claim = dispatcher.claim.bind(dispatcher);
  dispatcher.claim = async (...args) => {
    counter.claims += 1;
    try {
      return await claim(...args);
    } finally {
      counter.settled += 1;
    }
  };
  return counter;
}

// Issue 34: followers and workers are woken by the writer; polling is only a slow safety net.
// Every assertion counts (claims, statements, events); none reads the clock.
describe.each(dialects)('wake-ups on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let appId: string;
  let question = 0;
  const ask = () => {
    question += 1;
    return `say hi #${question} ${dialect}`;
  };

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    appId = (await buildScriptedApp(owner, model.url, tool.url, 'Wake-ups')).appId;
  });
  afterAll(async () => {
    await platform?.destroy();
    await model?.close();
    await tool?.close();
  });

  it('idle SSE followers of a queued run make no statement; one stop wakes them all with the terminal event', async () => {
    const queued = await owner.request('POST', `/apps/${appId}/runs`, { input: ask() });
    const { runId } = queued.body as { runId: string };
    const streams = Array.from({ length: followers }, () => owner.request('GET', `/runs/${runId}/events`));
    await untilQuiet();
    const before = queryCounts();
    // Longer than the 5 s safety net followers had before issue 34: they made 2 reads each in it.
    await pause(idleWindowMs);
    const idle = countsSince(before);
    expect(idle.sqlite + idle.postgres).toBe(0);
    // The stop comes through another connection on PostgreSQL (another pool: what another machine sees).
    if (dialect === 'postgres') {
      const config = platform.services.config.database;
      if (config.dialect !== 'postgres') throw new Error('expected PostgreSQL');
      const store = await PostgresRunStore.fromConnectionString(config.url, { schema: runStoreSchemaOf(config) });
      try {
        await new RunClient({ store }).requestStop(runId, { requestedBy: 'test' });
      } finally {
        await store.close();
      }
    } else {
      expect((await owner.request('POST', `/runs/${runId}/stop`)).status).toBe(202);
    }
    const ended = await Promise.all(streams);
    for (const stream of ended) expect(parseSse(stream.body as string).events.at(-1)?.event).toBe('run-finish');
  });

  it('a worker claims a new run when it is announced, not at its idle poll', async () => {
    const counter = countClaims(platform.services.dispatcher);
    const worker = platform.startWorker({ idlePollMs: noIdlePoll });
    try {
      await waitUntil(() => counter.settled >= 1);
      for (let index = 0; index < 3; index += 1) {
        const { runId } = (await owner.request('POST', `/apps/${appId}/runs`, { input: ask() })).body as { runId: string };
        expect((await waitForTerminal(owner, runId)).status).toBe('succeeded');
      }
      // The first claim (and on PostgreSQL one more when the listener has connected: a job enqueued
      // while it connected was not heard), then at most two per run: its announcement here, and its
      // NOTIFY heard back (or a freed slot).
      const atStart = dialect === 'postgres' ? 2 : 1;
      expect(counter.claims).toBeLessThanOrEqual(atStart + 3 * 2);
    } finally {
      await worker.stop();
    }
  });

  it.runIf(dialect === 'postgres')(
    'a worker of another process (its own connections) claims a run this process enqueued, woken by NOTIFY',
    async () => {
      let other: Platform | undefined;
      try {
        other = await createPlatform({ config: { ...platform.services.config, logLevel: 'warn' } });
        const counter = countClaims(other.services.dispatcher);
        const worker = other.startWorker({ idlePollMs: noIdlePoll });
        await waitUntil(() => counter.settled >= 1);
        const { runId } = (await owner.request('POST', `/apps/${appId}/runs`, { input: ask() })).body as { runId: string };
        expect((await waitForTerminal(owner, runId)).status).toBe('succeeded');
        expect(counter.claims).toBeGreaterThanOrEqual(2);
        await worker.stop();
      } finally {
        await other?.close();
      }
    },
  );

  it('a dispatcher wakes its watchers on announce until they stop watching', () => {
    const { dispatcher } = platform.services;
    let woken = 0;
    const stop = dispatcher.watchJobs(() => {
      woken += 1;
    });
    dispatcher.announce();
    expect(woken).toBe(1);
    stop();
    dispatcher.announce();
    expect(woken).toBe(1);
  });
});
