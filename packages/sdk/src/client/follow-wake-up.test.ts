import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../../test/helpers/child-process.js';
import { countingReads, settledReads, sleep, waitingAgent } from '../../test/helpers/follow-wake-up-helpers.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { SqliteRunStore } from '../store/sqlite/sqlite-run-store.js';
import { RunClient } from './run-client.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-follow-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('followers woken by the writer (issue 34, ADR 0025)', () => {
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

  it("SQLite: another process's write wakes the followers of that run only", { timeout: 60_000 }, async () => {
    const path = join(directory, 'targeted.db');
    const { store, reads } = countingReads(new SqliteRunStore({ path }));
    const { agent, release, inTool } = waitingAgent(store);
    const run = agent.run({ sessionId: 'watched', input: 'go' });
    await inTool;
    const client = new RunClient({ store, safetyNetMs: 600_000 });
    await client.createRun({ runId: 'unwatched', sessionId: 'other', kind: 'agent', name: 'held', input: 'later' });
    const follower = (async () => {
      for await (const _event of client.follow(run.runId)) {
        // drain
      }
    })();
    const settled = await settledReads(reads);
    const supplement = async (runId: string) => {
      const child = await runScript(new URL('../../test/client/supplement-child.ts', import.meta.url).pathname, {
        SUPPLEMENT_STORE: path,
        SUPPLEMENT_RUN_ID: runId,
        SUPPLEMENT_TEXT: `for ${runId}`,
      });
      expect(child.values.DONE, child.stderr).toEqual({});
    };
    // Another run's write changes the file but not the watched run: its follower sleeps on.
    await supplement('unwatched');
    await sleep(300);
    expect(reads()).toBe(settled);
    // A write to the watched run wakes its follower (the safety net is ten minutes away).
    await supplement(run.runId);
    while (reads() === settled) await sleep(20);
    release();
    await follower;
    await run.result();
    await store.close();
  });

  it('SQLite: a write another process reports (`relay.report`) wakes the follower before any check of the file (ADR 0048)', {
    timeout: 60_000,
  }, async () => {
    const path = join(directory, 'relayed.db');
    const sqlite = new SqliteRunStore({ path });
    // The file is checked every ten minutes: only a report can wake the follower in this test.
    sqlite.relay.checkEvery(600_000);
    const { store, reads } = countingReads(sqlite);
    const { agent, release, inTool } = waitingAgent(store);
    const run = agent.run({ sessionId: 'relayed', input: 'go' });
    await inTool;
    const client = new RunClient({ store, safetyNetMs: 600_000 });
    const follower = (async () => {
      for await (const _event of client.follow(run.runId)) {
        // drain
      }
    })();
    const settled = await settledReads(reads);
    const child = await runScript(new URL('../../test/client/supplement-child.ts', import.meta.url).pathname, {
      SUPPLEMENT_STORE: path,
      SUPPLEMENT_RUN_ID: run.runId,
      SUPPLEMENT_TEXT: 'from the other process',
    });
    expect(child.values.DONE, child.stderr).toEqual({});
    // Written by another process and not reported: nothing wakes the follower yet.
    await sleep(300);
    expect(reads()).toBe(settled);
    sqlite.relay.report(run.runId);
    while (reads() === settled) await sleep(20);
    release();
    await follower;
    await run.result();
    await sqlite.close();
  });

  it("SQLite: `relay.onWrite` hears this store's commits with the run's newest sequence, not reported writes", async () => {
    const store = new SqliteRunStore({ path: join(directory, 'heard.db') });
    const heard: [string, number | undefined][] = [];
    const stop = store.relay.onWrite((runId, through) => heard.push([runId, through]));
    const client = new RunClient({ store });
    await client.createRun({ runId: 'heard', sessionId: 's', kind: 'agent', name: 'held', input: 'first' });
    await client.supplement('heard', 'second');
    store.relay.report('heard', 99);
    stop();
    await client.supplement('heard', 'third');
    const journal = await store.readJournal('heard');
    // The supplement's commit, with the sequence it reached; neither the report nor the write after `stop()`.
    expect(heard).toEqual([['heard', journal.at(-2)?.sequence]]);
    expect(() => store.relay.checkEvery(0)).toThrow(RangeError);
    await store.close();
  });
});
