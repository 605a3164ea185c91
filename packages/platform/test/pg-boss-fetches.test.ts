import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installQueryCounter, recordStatements } from '../../../test/support/query-counter.js';
import { PgBossDispatcher } from '../src/adapters/dispatch/pg-boss-dispatcher.js';
import { createTestPlatform, dialects, postgresUrl, type TestPlatform } from './harness.js';
import { waitUntil } from './run-helpers.js';

installQueryCounter();

const isolatingWorker = { isolation: true };

/**
 * Which queues a pg-boss claim fetches from (issue 34): every enqueue wakes every worker process,
 * and a claim used to fetch both queues each time, so under load four fetches in five found
 * nothing. A claim now skips a queue it found empty while nothing was signalled for it since,
 * and only while its process hears every signal. Counts statements, never times: the trust
 * period is made long so that a slow machine cannot let it lapse mid-test.
 */
describe.skipIf(!dialects.includes('postgres'))('pg-boss claims fetch only from queues that may hold jobs', () => {
  let platform: TestPlatform;
  const schema = `fetches_${process.pid}_${randomUUID().slice(0, 8)}`;
  let listening: PgBossDispatcher;
  let deaf: PgBossDispatcher;
  let wakeUps = 0;
  let unwatch: () => void;

  const dispatcherOn = (emptyTrustMs: number) =>
    new PgBossDispatcher({
      database: platform.services.database,
      connectionString: postgresUrl,
      schema,
      leaseMs: 5_000,
      emptyTrustMs,
    });
  const enqueue = (dispatcher: PgBossDispatcher, isolation: boolean) =>
    platform.services.database
      .transaction()
      .execute((transaction) => dispatcher.enqueue(transaction, `run_${randomUUID()}`, { isolation }));
  /** A claim with the number of pg-boss fetch statements it made. */
  const claim = async (dispatcher: PgBossDispatcher, leaseMs = 5_000) => {
    const stop = recordStatements();
    const jobs = await dispatcher.claim('worker', 10, leaseMs, isolatingWorker);
    const statements = stop();
    for (const job of jobs) await dispatcher.complete(job);
    leases += statements.filter((text) => /set expire_in = /i.test(text)).length;
    return { jobs: jobs.length, fetches: statements.filter((text) => /^\s*WITH next as/i.test(text)).length };
  };
  /** Statements that set claimed jobs' leases. */
  let leases = 0;

  beforeAll(async () => {
    platform = await createTestPlatform('postgres');
    listening = dispatcherOn(600_000);
    deaf = dispatcherOn(600_000);
    await listening.start();
    await deaf.start();
    unwatch = listening.watchJobs(() => {
      wakeUps += 1;
    });
    // Its listener announces itself with one wake-up once it listens.
    await waitUntil(async () => wakeUps > 0);
  }, 60_000);
  afterAll(async () => {
    unwatch?.();
    await listening?.close();
    await deaf?.close();
    await platform?.destroy();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it('skips queues found empty until a signal names one, then fetches only that queue', async () => {
    // Drain both queues; the claim that finds them empty is trusted from then on.
    while ((await claim(listening)).jobs > 0);
    expect(await claim(listening)).toEqual({ jobs: 0, fetches: 0 });

    let before = wakeUps;
    await enqueue(deaf, true);
    await waitUntil(async () => wakeUps > before);
    expect(await claim(listening)).toEqual({ jobs: 1, fetches: 1 });

    before = wakeUps;
    await enqueue(deaf, false);
    await waitUntil(async () => wakeUps > before);
    expect(await claim(listening)).toEqual({ jobs: 1, fetches: 1 });
    expect(await claim(listening)).toEqual({ jobs: 0, fetches: 0 });
  });

  it('a claim sets no lease on jobs sent with its lease as their expiry, and sets it on the others', async () => {
    while ((await claim(listening)).jobs > 0);
    leases = 0;
    await enqueue(deaf, false);
    await waitUntil(async () => (await claim(listening)).jobs === 1);
    expect(leases).toBe(0);
    await enqueue(deaf, false);
    await waitUntil(async () => (await claim(listening, 7_000)).jobs === 1);
    expect(leases).toBe(1);
  });

  it('a dispatcher that does not listen fetches every queue on every claim, so it misses no job', async () => {
    while ((await claim(deaf)).jobs > 0);
    expect((await claim(deaf)).fetches).toBeGreaterThanOrEqual(2);
    await enqueue(listening, true);
    await enqueue(listening, false);
    expect((await claim(deaf)).jobs).toBe(2);
  });
});
