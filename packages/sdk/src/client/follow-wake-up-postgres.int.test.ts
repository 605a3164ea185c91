import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { countingReads, settledReads, sleep, waitingAgent } from '../../test/helpers/follow-wake-up-helpers.js';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../../test/postgres/postgres-availability.js';
import { PostgresRunStore } from '../store/postgres/postgres-run-store.js';
import { RunClient } from './run-client.js';

const schema = uniqueSchemaName('wake');
afterAll(() => dropSchema(schema));

await describeWithPostgres('followers woken by LISTEN/NOTIFY (issue 34, ADR 0025)', () => {
  it('20 idle followers make no read while nothing is written; writes through another pool wake them all', async () => {
    // The writer and the followers share nothing but the database, as two processes would.
    const writer = new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 4 });
    await writer.setup();
    const { store, reads } = countingReads(new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 4 }));
    const { agent, release, inTool } = waitingAgent(writer);
    const run = agent.run({ sessionId: 'wake', input: 'go' });
    await inTool;
    // The safety net is ten minutes away: only notifications can bring these followers to the end.
    const client = new RunClient({ store, safetyNetMs: 600_000 });
    const followers = Array.from({ length: 20 }, async () => {
      const types: string[] = [];
      for await (const event of client.follow(run.runId)) types.push(event.type);
      return types;
    });
    const settled = await settledReads(reads);
    await sleep(500);
    expect(reads()).toBe(settled);
    release();
    const seen = await Promise.all(followers);
    await run.result();
    for (const types of seen) expect(types.at(-1)).toBe('run-finish');
    await store.close();
    await writer.close();
  });

  it('a notification naming a sequence the follower has read wakes no read; one without a sequence does', async () => {
    const store = new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 4 });
    await store.setup();
    const { store: counted, reads } = countingReads(store);
    const { agent, release, inTool } = waitingAgent(store);
    const run = agent.run({ sessionId: 'spent', input: 'go' });
    await inTool;
    const client = new RunClient({ store: counted, safetyNetMs: 600_000 });
    const follower = (async () => {
      for await (const _event of client.follow(run.runId)) {
        // drain
      }
    })();
    // Read before settling: the counted store counts this read too. Held in its tool, the run writes nothing.
    const last = (await store.getRun(run.runId))?.lastSequence as number;
    const settled = await settledReads(reads);
    // The store's channel, as a writer in another process notifies it.
    const channel = `agentloom_changes_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
    const notifier = new pg.Client({ connectionString: postgresUrl });
    await notifier.connect();
    await notifier.query('SELECT pg_notify($1, $2)', [channel, `${last}:${run.runId}`]);
    await sleep(500);
    expect(reads()).toBe(settled);
    await notifier.query('SELECT pg_notify($1, $2)', [channel, `:${run.runId}`]);
    await settledReads(reads);
    // Nothing new: one journal read that finds nothing, and the check that the run still exists.
    expect(reads()).toBe(settled + 2);
    await notifier.end();
    release();
    await follower;
    await run.result();
    await store.close();
  });

  it('keeps its listening connection for the next follower after the last one left, instead of a connection per follow', async () => {
    const store = new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 4 });
    await store.setup();
    const client = new RunClient({ store });
    const channel = `agentloom_changes_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
    const observer = new pg.Client({ connectionString: postgresUrl });
    await observer.connect();
    /** The backends that listen on the store's channel. */
    const listening = async () =>
      (
        await observer.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE query = $1', [`LISTEN ${channel}`])
      ).rows.map((row) => row.pid);
    // An ended run: its follow watches, reads everything, and leaves.
    await client.createRun({ runId: 'linger-1', sessionId: 'linger', kind: 'agent', name: 'a', input: 'go' });
    await client.requestStop('linger-1');
    for await (const _batch of await client.openFollow('linger-1')) {
      // drain
    }
    let first: number[] = [];
    for (let tries = 0; tries < 100 && first.length === 0; tries += 1) {
      first = await listening();
      if (first.length === 0) await sleep(20);
    }
    // The follower left, and its listening connection stayed for the next one, which uses it.
    expect(first).toHaveLength(1);
    for await (const _batch of await client.openFollow('linger-1')) {
      // drain
    }
    await sleep(200);
    expect(await listening()).toEqual(first);
    await store.close();
    expect(await listening()).toEqual([]);
    await observer.end();
  });
});
