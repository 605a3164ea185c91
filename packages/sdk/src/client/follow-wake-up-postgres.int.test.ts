import { afterAll, expect, it } from 'vitest';
import { countingReads, settledReads, sleep, waitingAgent } from '../../test/helpers/follow-wake-up-helpers.js';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../../test/postgres/postgres-availability.js';
import { PostgresRunStore } from '../store/postgres/postgres-run-store.js';
import { RunClient } from './run-client.js';

const schema = uniqueSchemaName('wake');
afterAll(() => dropSchema(schema));

await describeWithPostgres('followers woken by LISTEN/NOTIFY (issue 34, ADR 0024)', () => {
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
});
