import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreFailureError, StoreFileChangedError } from '../../core/errors/index.js';
import { runStoreContract } from '../../testing/run-store-contract.js';
import { sqliteMigrations } from './migrations.js';
import { toSqliteStoreError } from './sqlite-errors.js';
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

  it('reads a journal page right for every limit, past the limits it keeps prepared (issue 34)', async () => {
    const store = new SqliteRunStore({ path: nextPath() });
    const entries = Array.from({ length: 30 }, (_, index) => ({ type: 'step', data: index }));
    await store.acquire({
      runId: 'limits',
      sessionId: 's',
      ownerId: 'a',
      leaseMs: 60_000,
      deadlineAt: Date.now() + 60_000,
      initialEntries: entries,
    });
    for (let limit = 1; limit <= 30; limit += 1) {
      const page = await store.readJournal('limits', { afterSequence: 2, limit });
      expect(page.map((entry) => entry.sequence)).toEqual(Array.from({ length: Math.min(limit, 28) }, (_, index) => index + 3));
    }
    expect(await store.readJournal('limits')).toHaveLength(30);
    await store.close();
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

  it('migrates a version-3 file: its finished runs, without digests, are read from their journals (issue 18)', async () => {
    const path = nextPath();
    const raw = new Database(path);
    raw.exec('CREATE TABLE agentloom_schema (version INTEGER NOT NULL) STRICT');
    for (const migration of sqliteMigrations.slice(0, 3)) raw.exec(migration);
    raw.prepare('INSERT INTO agentloom_schema (version) VALUES (3)').run();
    raw
      .prepare(
        `INSERT INTO agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used,
           last_sequence, created_at, updated_at, result, kind, name, metadata)
         VALUES ('old', 's', 'succeeded', NULL, 1, 0, 0, 1, 1, 1, 1, '{"status":"succeeded"}', 'agent', 'a', '{}')`,
      )
      .run();
    raw
      .prepare(
        `INSERT INTO agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES ('old', 1, 1, 'run-started', NULL, '{"input":"q"}', 1)`,
      )
      .run();
    raw.close();
    const store = new SqliteRunStore({ path });
    const [read] = await store.readSession({ sessionId: 's' });
    expect(read?.digest).toBeUndefined();
    expect(read?.journal).toEqual([{ sequence: 1, epoch: 1, type: 'run-started', data: { input: 'q' }, at: 1 }]);
    expect(read?.run).toMatchObject({ runId: 'old', status: 'succeeded', lastSequence: 1 });
    await store.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT version FROM agentloom_schema').get()).toEqual({ version: sqliteMigrations.length });
    check.close();
  });

  it('refuses a database written by a newer schema', async () => {
    const path = nextPath();
    await new SqliteRunStore({ path }).close();
    const raw = new Database(path);
    raw.prepare('UPDATE agentloom_schema SET version = 999').run();
    raw.close();
    expect(() => new SqliteRunStore({ path })).toThrow(/Cannot open SQLite run store/);
  });

  const acquireRequest = (runId: string) => ({
    runId,
    sessionId: 's',
    ownerId: 'a',
    leaseMs: 60_000,
    deadlineAt: Date.now() + 60_000,
    initialEntries: [{ type: 'run-started', data: {} }],
  });

  it('writes an owner plain append as journal entries only, and still reports the run exactly (issue 34)', async () => {
    const path = nextPath();
    let clock = 1_000;
    const store = new SqliteRunStore({ path, now: () => clock });
    await store.acquire(acquireRequest('plain'));
    const reader = new Database(path, { readonly: true });
    const row = reader.prepare<[], { last_sequence: number; updated_at: number }>(
      "SELECT last_sequence, updated_at FROM agentloom_runs WHERE run_id = 'plain'",
    );
    clock = 2_000;
    await store.append({
      runId: 'plain',
      epoch: 1,
      entries: [
        { type: 'a', data: 1 },
        { type: 'b', data: 2 },
      ],
    });
    // The run row's page is left alone (one page written per commit, not two) ...
    expect(row.get()).toEqual({ last_sequence: 1, updated_at: 1_000 });
    // ... and every reader of the run still sees the journal's end.
    expect(await store.getRun('plain')).toMatchObject({ lastSequence: 3, updatedAt: 2_000 });
    expect((await store.listRuns({ limit: 10 }))[0]).toMatchObject({ lastSequence: 3, updatedAt: 2_000 });
    expect((await store.listSessionRuns('s'))[0]).toMatchObject({ lastSequence: 3, updatedAt: 2_000 });
    expect((await store.renewLease('plain', 1, 60_000)).lastSequence).toBe(3);
    // Others' entries and the owner's next ones keep numbering densely after it.
    expect((await store.appendExternal({ runId: 'plain', entries: [{ type: 'c', data: 3 }] })).lastSequence).toBe(4);
    expect(
      (await store.append({ runId: 'plain', epoch: 1, entries: [{ type: 'd', data: 4 }], ifLastSequence: 4 })).lastSequence,
    ).toBe(5);
    // A commit that changes the row (a loop charged, the end) writes the row, exactly.
    clock = 3_000;
    await store.append({ runId: 'plain', epoch: 1, entries: [{ type: 'e', data: 5 }], chargeLoops: 1 });
    expect(row.get()).toEqual({ last_sequence: 6, updated_at: 3_000 });
    expect((await store.readJournal('plain')).map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    reader.close();
    await store.close();
  });

  it('refuses to go on when its file is deleted under it (StoreFileChangedError at the next renewal or append)', async () => {
    const path = nextPath();
    const store = new SqliteRunStore({ path });
    await store.acquire(acquireRequest('deleted'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    await expect(store.renewLease('deleted', 1, 1000)).rejects.toMatchObject({ code: 'store-file-changed', path });
    await expect(store.append({ runId: 'deleted', epoch: 1, entries: [{ type: 'x', data: 1 }] })).rejects.toSatisfy(
      StoreFileChangedError.isInstance,
    );
    await store.close();
  });

  it('refuses to go on when its file is replaced by another one', async () => {
    const path = nextPath();
    const store = new SqliteRunStore({ path });
    await store.acquire(acquireRequest('replaced'));
    const other = nextPath();
    await new SqliteRunStore({ path: other }).close();
    renameSync(other, path);
    await expect(store.append({ runId: 'replaced', epoch: 1, entries: [{ type: 'x', data: 1 }] })).rejects.toMatchObject({
      code: 'store-file-changed',
    });
    await store.close();
  });

  it('refuses a file moved away (a new one at its path) from the next renewal on, commits included (issue 34)', async () => {
    const path = nextPath();
    const store = new SqliteRunStore({ path });
    await store.acquire(acquireRequest('moved'));
    renameSync(path, `${path}.moved`);
    await new SqliteRunStore({ path }).close();
    await expect(store.renewLease('moved', 1, 60_000)).rejects.toMatchObject({ code: 'store-file-changed', path });
    // What the renewal found stays: the owner's next commit is refused too.
    await expect(store.append({ runId: 'moved', epoch: 1, entries: [{ type: 'x', data: 1 }] })).rejects.toMatchObject({
      code: 'store-file-changed',
    });
    await store.close();
  });

  it('answers StoreFailureError, never a raw TypeError, after close()', async () => {
    const store = new SqliteRunStore({ path: nextPath() });
    await store.close();
    for (const call of [
      () => store.getRun('r'),
      () => store.acquire(acquireRequest('closed')),
      () => store.readJournal('r'),
      () => store.listSessionRuns('s'),
      () => store.releaseLease('r', 1),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(StoreFailureError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ transient: false });
    }
  });

  it('maps driver errors to StoreFailureError: transient for BUSY, LOCKED, IOERR and FULL, permanent otherwise', () => {
    const cases: Array<[string, boolean]> = [
      ['SQLITE_BUSY', true],
      ['SQLITE_BUSY_SNAPSHOT', true],
      ['SQLITE_LOCKED', true],
      ['SQLITE_IOERR_WRITE', true],
      ['SQLITE_FULL', true],
      ['SQLITE_CORRUPT', false],
      ['SQLITE_NOTADB', false],
      ['SQLITE_READONLY', false],
    ];
    for (const [code, transient] of cases) {
      const mapped = toSqliteStoreError('append', new Database.SqliteError('driver says no', code));
      expect(StoreFailureError.isInstance(mapped)).toBe(true);
      expect(mapped).toMatchObject({ transient });
      expect(mapped.message).toContain(code);
    }
  });

  it('reports a corrupt file as a StoreFailureError', async () => {
    const path = nextPath();
    writeFileSync(path, Buffer.alloc(8192, 7));
    expect(() => new SqliteRunStore({ path })).toThrow(StoreFailureError);
  });
});
