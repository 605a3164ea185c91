import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPlatformDatabase } from '../src/adapters/database/connect.js';
import { migrateToLatest } from '../src/adapters/database/migrate.js';

/**
 * The platform's SQLite transactions take the write lock at `BEGIN` (`BEGIN IMMEDIATE`): a
 * deferred one that had only read would be refused its first write with `SQLITE_BUSY_SNAPSHOT`
 * whenever another process (the embedded worker child) wrote in between — which made a first
 * publish fail as `publish-conflict` in CI. Checked with a second real connection to the file.
 */
describe('platform SQLite transactions', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  /** A migrated platform database in a directory of its own, and its file. */
  async function migrated(): Promise<{ handle: ReturnType<typeof openPlatformDatabase>; file: string }> {
    const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-transactions-'));
    directories.push(directory);
    const file = path.join(directory, 'platform.sqlite');
    const handle = openPlatformDatabase({ dialect: 'sqlite', file });
    await migrateToLatest(handle.database, 'sqlite');
    return { handle, file };
  }

  /** A user row with `id`. */
  const user = (id: string) => ({
    id,
    email: `${id}@example.com`,
    display_name: id,
    password_hash: 'x',
    is_instance_admin: 0,
    status: 'active' as const,
    created_at: new Date(0).toISOString(),
  });

  it('hold the write lock from their start, so another writer waits instead of breaking them', async () => {
    const { handle, file } = await migrated();
    const other = new Database(file);
    other.pragma('busy_timeout = 0');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      started = resolve;
    });
    const transaction = handle.database.transaction().execute(async (trx) => {
      // Only a read so far: a deferred transaction would hold no write lock yet.
      await trx.selectFrom('users').select('id').execute();
      started();
      await held;
      await trx.deleteFrom('users').where('id', '=', 'nobody').execute();
    });
    await inside;
    expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    release();
    await transaction;
    other.exec('BEGIN IMMEDIATE');
    other.exec('COMMIT');
    other.close();
    await handle.close();
  });

  it('write integer LIMIT and OFFSET into the SQL (a bound LIMIT re-prepares the statement at every execution)', async () => {
    const { handle } = await migrated();
    for (const id of ['a', 'b', 'c', 'd']) await handle.database.insertInto('users').values(user(id)).execute();
    const query = handle.database.selectFrom('users').select('id').orderBy('id').limit(2).offset(1);
    expect((await query.execute()).map((row) => row.id)).toEqual(['b', 'c']);
    // The plugins run when a query is compiled: this is the text SQLite prepares.
    const compiled = query.compile();
    expect(compiled.sql).toMatch(/limit 2 offset 1$/);
    expect(compiled.parameters).toEqual([]);
    await handle.close();
  });

  it("wait for another connection's write lock by timer, so the event loop runs meanwhile (issue 34)", async () => {
    const { handle, file } = await migrated();
    // Another writer (the worker child, say) holds the write lock and lets it go from a timer of
    // this event loop: a wait that sleeps inside SQLite would never see it go.
    const other = new Database(file);
    other.prepare('BEGIN IMMEDIATE').run();
    let ticks = 0;
    const ticking = setInterval(() => {
      ticks += 1;
    }, 5);
    setTimeout(() => other.prepare('COMMIT').run(), 150);
    await handle.database.insertInto('users').values(user('waited')).execute();
    await handle.database.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ display_name: 'after' }).where('id', '=', 'waited').execute();
    });
    clearInterval(ticking);
    expect(ticks).toBeGreaterThan(5);
    expect(
      await handle.database.selectFrom('users').select('display_name').where('id', '=', 'waited').executeTakeFirst(),
    ).toEqual({ display_name: 'after' });
    other.close();
    await handle.close();
  });

  it("try again at the next turn of the event loop when another connection's commit frees the lock soon, not after a timer (issue 34)", async () => {
    const { handle, file } = await migrated();
    const other = new Database(file);
    other.prepare('BEGIN IMMEDIATE').run();
    // A fresh turn of the loop (the migration used up this one's SQLite budget), then the other
    // writer commits two turns later, as a commit of the worker child frees the lock within a
    // fraction of a millisecond: the statement refused meanwhile waits on no timer.
    await new Promise((resolve) => setImmediate(resolve));
    setImmediate(() => setImmediate(() => other.prepare('COMMIT').run()));
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await handle.database.insertInto('users').values(user('soon')).execute();
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
    expect(await handle.database.selectFrom('users').select('id').where('id', '=', 'soon').executeTakeFirst()).toEqual({
      id: 'soon',
    });
    other.close();
    await handle.close();
  });

  it('let the event loop turn during a long chain of queries, so a burst of requests does not hold up timers and streams (issue 34)', async () => {
    const { handle } = await migrated();
    await handle.database.insertInto('users').values(user('reader')).execute();
    // Each query settles at once (SQLite is synchronous): without a turn of the loop between
    // them, this chain would run to its 2-second bound before the immediate below could fire.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const started = performance.now();
    let queries = 0;
    while (!turned && performance.now() - started < 2_000) {
      await handle.database.selectFrom('users').select('id').where('id', '=', 'reader').executeTakeFirst();
      queries += 1;
    }
    expect(turned).toBe(true);
    expect(queries).toBeGreaterThan(0);
    await handle.close();
  });
});
