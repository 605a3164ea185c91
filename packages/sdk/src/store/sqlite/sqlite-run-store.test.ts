import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreContract } from '../../testing/run-store-contract.js';
import { SqliteRunStore } from './sqlite-run-store.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-sqlite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const nextPath = () => {
  files += 1;
  return join(directory, `store-${files}.db`);
};

runStoreContract({ name: 'SqliteRunStore', create: () => new SqliteRunStore({ path: nextPath() }) });

describe('SqliteRunStore', () => {
  it('uses one WAL file and keeps runs across reopening', async () => {
    const path = nextPath();
    const first = new SqliteRunStore({ path });
    await first.acquire({
      runId: 'r1',
      sessionId: 's1',
      ownerId: 'a',
      leaseMs: 1000,
      deadlineAt: 123,
      initialEntries: [{ type: 'run-started', data: { input: 'x' } }],
    });
    await first.close();
    const second = new SqliteRunStore({ path });
    expect(await second.getRun('r1')).toMatchObject({ runId: 'r1', deadlineAt: 123, epoch: 1 });
    expect(await second.readJournal('r1')).toHaveLength(1);
    await second.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('fences appends across two connections to the same file', async () => {
    const path = nextPath();
    const owner = new SqliteRunStore({ path });
    const other = new SqliteRunStore({ path });
    const base = { runId: 'r2', sessionId: 's', leaseMs: 20, deadlineAt: Date.now() + 60_000, initialEntries: [] };
    await owner.acquire({ ...base, ownerId: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect((await other.acquire({ ...base, ownerId: 'b' })).outcome).toBe('acquired');
    await expect(owner.append({ runId: 'r2', epoch: 1, entries: [{ type: 'x', data: 1 }] })).rejects.toMatchObject({
      code: 'stale-epoch',
    });
    await other.append({ runId: 'r2', epoch: 2, entries: [{ type: 'y', data: 2 }] });
    expect((await owner.readJournal('r2')).map((entry) => [entry.type, entry.epoch])).toEqual([['y', 2]]);
    await owner.close();
    await other.close();
  });

  it('refuses a database written by a newer schema', async () => {
    const path = nextPath();
    await new SqliteRunStore({ path }).close();
    const raw = new Database(path);
    raw.prepare('UPDATE agentloom_schema SET version = 999').run();
    raw.close();
    expect(() => new SqliteRunStore({ path })).toThrow(/Cannot open SQLite run store/);
  });
});
