import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { countingReads, settledReads, sleep, waitingAgent } from '../../test/helpers/follow-wake-up-helpers.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { SqliteRunStore } from '../store/sqlite/sqlite-run-store.js';
import { RunClient } from './run-client.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-follow-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('followers woken by the writer (issue 34, ADR 0024)', () => {
  for (const [name, open] of [
    ['memory', () => new MemoryRunStore()],
    ['SQLite', () => new SqliteRunStore({ path: join(directory, `idle-${Date.now()}.db`) })],
  ] as const) {
    it(`${name}: 20 idle followers make no read while nothing is written, and all see the run finish`, async () => {
      const { store, reads } = countingReads(open());
      const { agent, release, inTool } = waitingAgent(store);
      const run = agent.run({ sessionId: 'idle', input: 'go' });
      await inTool;
      const client = new RunClient({ store, safetyNetMs: 60_000 });
      const followers = Array.from({ length: 20 }, async () => {
        const types: string[] = [];
        for await (const event of client.follow(run.runId)) types.push(event.type);
        return types;
      });
      // Let every follower read what is there and settle into its wait.
      const settled = await settledReads(reads);
      await sleep(500);
      expect(reads()).toBe(settled);
      release();
      const seen = await Promise.all(followers);
      await run.result();
      for (const types of seen) expect(types.at(-1)).toBe('run-finish');
      await store.close();
    });
  }

  it('SQLite: a write by another connection to the file wakes the followers without the safety net', async () => {
    const path = join(directory, 'foreign.db');
    const { store, reads } = countingReads(new SqliteRunStore({ path }));
    const { agent, release, inTool } = waitingAgent(store);
    const run = agent.run({ sessionId: 'foreign', input: 'go' });
    await inTool;
    const client = new RunClient({ store, safetyNetMs: 600_000 });
    const follower = (async () => {
      for await (const _event of client.follow(run.runId)) {
        // drain
      }
    })();
    const settled = await settledReads(reads);
    // Another process's write: a raw connection (no store of this process hears it) touches the run.
    const foreign = new Database(path);
    foreign.prepare('UPDATE agentloom_runs SET updated_at = updated_at + 1 WHERE run_id = ?').run(run.runId);
    foreign.close();
    // Only the foreign-write check can wake it now: the safety net is ten minutes away.
    while (reads() === settled) await sleep(20);
    expect(reads()).toBeGreaterThan(settled);
    release();
    await follower;
    await run.result();
    await store.close();
  });
});
