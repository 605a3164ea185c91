import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher, RunRequirements } from '../src/adapters/dispatch/index.js';
import { createTestPlatform, seedUser, type TestPlatform } from './harness.js';
import { waitUntil } from './run-helpers.js';

/** Where a contract run of the `Dispatcher` port happens: an engine and the adapter on it. */
export interface DispatcherTarget {
  dialect: 'sqlite' | 'postgres';
  dispatcher: 'lease-table' | 'pg-boss';
}

const anyWorker = { isolation: false };
const isolatingWorker = { isolation: true };
const plainRun: RunRequirements = { isolation: false };

/**
 * The contract every `Dispatcher` adapter keeps (PLATFORM.md §4.6): one suite, run on each
 * adapter and engine on a real database (a SQLite file, the real PostgreSQL). Each test uses its
 * own runs, so leftovers of one test never satisfy another; no assertion reads the clock.
 */
export function describeDispatcherContract(target: DispatcherTarget): void {
  describe(`Dispatcher contract: ${target.dispatcher} on ${target.dialect}`, () => {
    let platform: TestPlatform;
    let dispatcher: Dispatcher;
    let appId: string;
    let spaceId: string;

    beforeAll(async () => {
      platform = await createTestPlatform(target.dialect, { dispatcher: target.dispatcher, runLeaseMs: 1_000 });
      dispatcher = platform.services.dispatcher;
      const user = await seedUser(platform, `dispatch-${randomUUID().slice(0, 8)}@example.com`);
      const at = new Date().toISOString();
      spaceId = `spc_${randomUUID()}`;
      appId = `app_${randomUUID()}`;
      const { database } = platform.services;
      await database
        .insertInto('spaces')
        .values({ id: spaceId, name: 'dispatch', state: 'active', created_by: user.id, created_at: at })
        .execute();
      await database
        .insertInto('apps')
        .values({
          id: appId,
          space_id: spaceId,
          kind: 'agent',
          name: 'dispatch',
          description: '',
          mode: 'react',
          file_root: '/nonexistent',
          state: 'active',
          latest_release_id: null,
          created_by: user.id,
          created_at: at,
          updated_at: at,
        })
        .execute();
    });
    afterAll(async () => {
      await platform?.destroy();
    });

    /** Records a run and its job in one transaction, as `POST /apps/:appId/runs` does; `rollback` aborts it. */
    async function enqueueRun(requirements: RunRequirements = plainRun, rollback = false): Promise<string> {
      const runId = `run_${randomUUID()}`;
      const sessionId = `ses_${randomUUID()}`;
      const at = new Date().toISOString();
      const attempt = platform.services.database.transaction().execute(async (transaction) => {
        await transaction
          .insertInto('sessions')
          .values({
            id: sessionId,
            space_id: spaceId,
            app_id: appId,
            kind: 'agent',
            created_by: 'test',
            created_at: at,
            last_run_at: at,
          })
          .execute();
        await transaction
          .insertInto('runs')
          .values({
            id: runId,
            space_id: spaceId,
            app_id: appId,
            session_id: sessionId,
            release_id: null,
            stop_cause: null,
            requested_by: 'test',
            created_at: at,
          })
          .execute();
        await dispatcher.enqueue(transaction, runId, requirements);
        if (rollback) throw new Error('rolled back on purpose');
      });
      if (rollback) await expect(attempt).rejects.toThrow('rolled back on purpose');
      else await attempt;
      return runId;
    }

    /** Claims until `runIds` are all claimed (other tests' jobs may come along; they are handed back). */
    async function claimAll(workerId: string, runIds: string[], capabilities = anyWorker, leaseMs = 60_000) {
      const wanted = new Set(runIds);
      const claimed = new Map<string, Awaited<ReturnType<Dispatcher['claim']>>[number]>();
      await waitUntil(async () => {
        for (const job of await dispatcher.claim(workerId, 50, leaseMs, capabilities)) {
          if (wanted.has(job.runId)) claimed.set(job.runId, job);
          else await dispatcher.release(job, new Date());
        }
        return claimed.size === wanted.size;
      });
      return claimed;
    }

    /** Claims repeatedly for a while and answers every run id of `runIds` that was claimed. */
    async function claimedDuring(workerId: string, runIds: string[], rounds: number, capabilities = anyWorker) {
      const seen: string[] = [];
      for (let round = 0; round < rounds; round += 1) {
        for (const job of await dispatcher.claim(workerId, 50, 60_000, capabilities)) {
          if (runIds.includes(job.runId)) seen.push(job.runId);
          await dispatcher.release(job, new Date(Date.now() + 60_000));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return seen;
    }

    it('a job enqueued in a transaction that rolls back does not exist; a committed one is claimed once', async () => {
      const rolledBack = await enqueueRun(plainRun, true);
      const committed = await enqueueRun();
      const claimed = await claimAll('worker-a', [committed]);
      expect(claimed.get(committed)?.attempt).toBe(1);
      expect(await claimedDuring('worker-b', [rolledBack, committed], 5)).toEqual([]);
      const job = claimed.get(committed);
      if (job) await dispatcher.complete(job);
    });

    it('concurrent claimers never get the same job', async () => {
      const runIds = await Promise.all(Array.from({ length: 30 }, () => enqueueRun()));
      const byWorker = await Promise.all(
        ['worker-1', 'worker-2', 'worker-3', 'worker-4'].map(async (workerId) => {
          const jobs = [];
          for (let round = 0; round < 10; round += 1) jobs.push(...(await dispatcher.claim(workerId, 4, 60_000, anyWorker)));
          return jobs;
        }),
      );
      const all = byWorker.flat().filter((job) => runIds.includes(job.runId));
      expect(new Set(all.map((job) => job.runId)).size).toBe(all.length);
      expect(all.length).toBe(30);
      for (const job of byWorker.flat()) await dispatcher.complete(job);
    });

    it('a job whose lease expired is claimable again, and the stale claim can no longer renew, complete or release it', async () => {
      const runId = await enqueueRun();
      const first = (await claimAll('dead-worker', [runId], anyWorker, 600)).get(runId);
      if (!first) throw new Error('not claimed');
      const second = (await claimAll('taker', [runId], anyWorker, 60_000)).get(runId);
      if (!second) throw new Error('not re-claimed');
      expect(second.attempt).toBe(first.attempt + 1);
      expect(await dispatcher.renew(first, 60_000)).toBe(false);
      await dispatcher.complete(first);
      await dispatcher.release(first, new Date());
      expect(await dispatcher.renew(second, 60_000)).toBe(true);
      expect(await claimedDuring('other', [runId], 3)).toEqual([]);
      await dispatcher.complete(second);
    });

    it('a renewed lease keeps the job with its worker past the first lease', async () => {
      const runId = await enqueueRun();
      const job = (await claimAll('live-worker', [runId], anyWorker, 600)).get(runId);
      if (!job) throw new Error('not claimed');
      const seen: string[] = [];
      for (let round = 0; round < 12; round += 1) {
        expect(await dispatcher.renew(job, 600)).toBe(true);
        seen.push(...(await claimedDuring('other', [runId], 1)));
      }
      expect(seen).toEqual([]);
      await dispatcher.complete(job);
    });

    it('sweep puts expired jobs back and names their runs', async () => {
      const runId = await enqueueRun();
      const job = (await claimAll('dead-worker', [runId], anyWorker, 300)).get(runId);
      if (!job) throw new Error('not claimed');
      const swept: string[] = [];
      await waitUntil(async () => {
        swept.push(...(await dispatcher.sweep()));
        return swept.includes(runId);
      });
      const again = (await claimAll('taker', [runId])).get(runId);
      expect(again?.attempt).toBe(job.attempt + 1);
      if (again) await dispatcher.complete(again);
    });

    it('release with notBefore in the future keeps the job until then; released now, it is claimable at once', async () => {
      const later = await enqueueRun();
      const now = await enqueueRun();
      const claimed = await claimAll('worker-a', [later, now]);
      const laterJob = claimed.get(later);
      const nowJob = claimed.get(now);
      if (!laterJob || !nowJob) throw new Error('not claimed');
      await dispatcher.release(laterJob, new Date(Date.now() + 60 * 60_000));
      await dispatcher.release(nowJob, new Date());
      const again = (await claimAll('worker-b', [now])).get(now);
      expect(again?.attempt).toBe(nowJob.attempt + 1);
      expect(await claimedDuring('worker-c', [later], 5)).toEqual([]);
      if (again) await dispatcher.complete(again);
    });

    it('a completed job is never claimed again', async () => {
      const runId = await enqueueRun();
      const job = (await claimAll('worker-a', [runId], anyWorker, 300)).get(runId);
      if (!job) throw new Error('not claimed');
      await dispatcher.complete(job);
      expect(await claimedDuring('worker-b', [runId], 12)).toEqual([]);
      expect(await dispatcher.renew(job, 60_000)).toBe(false);
    });

    it('a worker that cannot isolate never claims a run that needs isolation; one that can does (NOT-18)', async () => {
      const isolated = await enqueueRun({ isolation: true });
      const plain = await enqueueRun();
      const plainJob = (await claimAll('no-bubblewrap', [plain], anyWorker)).get(plain);
      expect(await claimedDuring('no-bubblewrap', [isolated], 5, anyWorker)).toEqual([]);
      const isolatedJob = (await claimAll('bubblewrap', [isolated], isolatingWorker)).get(isolated);
      expect(isolatedJob?.runId).toBe(isolated);
      if (plainJob) await dispatcher.complete(plainJob);
      if (isolatedJob) await dispatcher.complete(isolatedJob);
    });

    it('a release that raises the requirements moves the job to workers that meet them', async () => {
      const runId = await enqueueRun();
      const job = (await claimAll('no-bubblewrap', [runId], anyWorker)).get(runId);
      if (!job) throw new Error('not claimed');
      await dispatcher.release(job, new Date(), { isolation: true });
      expect(await claimedDuring('no-bubblewrap', [runId], 5, anyWorker)).toEqual([]);
      const again = (await claimAll('bubblewrap', [runId], isolatingWorker)).get(runId);
      expect(again?.attempt).toBe(job.attempt + 1);
      if (again) await dispatcher.complete(again);
    });

    it('names the runs that have a live job (queued or claimed), not those whose job ended or that never had one', async () => {
      const queued = await enqueueRun();
      const claimed = await enqueueRun();
      const ended = await enqueueRun();
      const job = (await claimAll('worker-a', [claimed, ended], anyWorker)).get(ended);
      if (!job) throw new Error('not claimed');
      await dispatcher.complete(job);
      const live = await dispatcher.runsWithJobs([queued, claimed, ended, `run_${randomUUID()}`]);
      expect([...live].sort()).toEqual([queued, claimed].sort());
      expect(await dispatcher.runsWithJobs([])).toEqual(new Set());
    });

    it('enqueue gives a run whose job ended a new job, claimed once more', async () => {
      const runId = await enqueueRun();
      const job = (await claimAll('worker-a', [runId], anyWorker)).get(runId);
      if (!job) throw new Error('not claimed');
      await dispatcher.complete(job);
      await platform.services.database.transaction().execute((transaction) => dispatcher.enqueue(transaction, runId, plainRun));
      expect([...(await dispatcher.runsWithJobs([runId]))]).toEqual([runId]);
      const again = (await claimAll('worker-b', [runId], anyWorker)).get(runId);
      expect(again?.runId).toBe(runId);
      if (again) await dispatcher.complete(again);
    });
  });
}
