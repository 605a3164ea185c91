import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryRunStore, RunClient } from '@agentloom/sdk';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { type JournalWrites, receiveJournalWrites, relayJournalWrites } from '../src/worker/index.js';

const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-relay-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the worker child relays its journal writes to the serving process (ADR 0048)', () => {
  it('sends the writes of an event-loop turn in one message, each run once with its newest sequence', async () => {
    const store = new SqliteRunStore({ path: path.join(directory, 'child.db') });
    const client = new RunClient({ store });
    await client.createRun({ runId: 'a', sessionId: 's1', kind: 'agent', name: 'held', input: 'one' });
    await client.createRun({ runId: 'b', sessionId: 's2', kind: 'agent', name: 'held', input: 'two' });
    const messages: JournalWrites[] = [];
    const stop = relayJournalWrites(store, (writes) => messages.push(writes));
    // Three commits in one turn: a, b, a again.
    await Promise.all([client.supplement('a', 'first'), client.supplement('b', 'second'), client.supplement('a', 'third')]);
    await new Promise((resolve) => setImmediate(resolve));
    const newest = async (runId: string) => (await store.readJournal(runId)).at(-1)?.sequence;
    // Usually one message; a turn the store cut short (a long turn yields) may make more.
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages.every((writes) => new Set(writes.map(([runId]) => runId)).size === writes.length)).toBe(true);
    expect(new Map(messages.flat())).toEqual(
      new Map([
        ['a', await newest('a')],
        ['b', await newest('b')],
      ]),
    );
    const sentSoFar = messages.length;
    // Unsubscribed: later writes are not sent.
    stop();
    await client.supplement('b', 'fourth');
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toHaveLength(sentSoFar);
    await store.close();
  });

  it("wakes the serving process's follower of a reported run; relays nothing for a store that is not SQLite", async () => {
    const store = new SqliteRunStore({ path: path.join(directory, 'server.db') });
    const client = new RunClient({ store, safetyNetMs: 600_000 });
    await client.createRun({ runId: 'r', sessionId: 's', kind: 'agent', name: 'held', input: 'go' });
    const receive = receiveJournalWrites(store);
    expect(receive).toBeDefined();
    const woken: (number | undefined)[] = [];
    const unwatch = store.watchRun('r', (through) => woken.push(through));
    receive?.([
      ['r', 7],
      ['elsewhere', null],
    ]);
    expect(woken).toEqual([7]);
    unwatch();
    await store.close();

    const memory = new MemoryRunStore();
    expect(receiveJournalWrites(memory)).toBeUndefined();
    const sent: JournalWrites[] = [];
    relayJournalWrites(memory, (writes) => sent.push(writes))();
    await new RunClient({ store: memory }).createRun({ runId: 'm', sessionId: 's', kind: 'agent', name: 'held', input: 'go' });
    expect(sent).toEqual([]);
  });
});
