import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgBossSchemaOf } from '../src/config/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { buildSpace } from './scenario.js';

/**
 * A run that has not ended but whose job is gone (its pg-boss job removed, its lease-table row
 * deleted by hand or by a bug) would wait for ever: no worker is ever handed it. The sweeper gives
 * it a job back (issue 36), and the run finishes with its own id. Without the re-enqueue this test
 * never ends (the run stays queued).
 */
describe.each(dialects)('a run whose job was lost, on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let appId: string;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect, { runLeaseMs: 400 });
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    ({ appId } = await buildSpace(owner, `Requeue ${dialect}`));
  });
  afterAll(() => platform.destroy());

  /** Removes every job of the run, as an operator's cleanup or a lost queue would. */
  async function loseJob(runId: string): Promise<void> {
    const { database, config } = platform.services;
    if (dialect === 'sqlite') await database.deleteFrom('run_jobs').where('run_id', '=', runId).execute();
    else await sql`delete from ${sql.table(`${pgBossSchemaOf(config)}.job`)} where data->>'runId' = ${runId}`.execute(database);
  }

  it('is given a job back by the sweeper and finishes', async () => {
    // No worker yet: the run stays queued while its job is removed.
    const created = await owner.request('POST', `/apps/${appId}/runs`, { input: 'what is agentloom?' });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const { runId } = created.body as { runId: string };
    await loseJob(runId);
    expect(await platform.services.dispatcher.runsWithJobs([runId])).toEqual(new Set());

    platform.startWorker({ heartbeatMs: 50 });
    const run: RunBody = await waitForTerminal(owner, runId);
    expect(run).toMatchObject({ id: runId, status: 'succeeded' });
    await waitUntil(() => platform.logLines.some((line) => line.includes(runId) && line.includes('re-enqueued')));
  });
});
