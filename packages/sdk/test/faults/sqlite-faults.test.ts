/**
 * Issue 18, items 1 and 4 on SQLite: a lock held by another connection (`SQLITE_BUSY`) and failed
 * disk writes (`SQLITE_IOERR`, before and after the commit) while runs save their tool results
 * cost time, never a duplicate execution or a lost result; and waiting for a lock never blocks
 * the event loop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import { Agent } from '../../src/engine/agent/agent.js';
import { SqliteRunStore, type SqliteRunStoreOptions } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { runCountedRuns } from './fault-harness.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-sqlite-faults-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store whose appends fail with a real driver error now and then, before or after the commit. */
class FailingDiskStore extends SqliteRunStore {
  injected = 0;
  private readonly rate: number;

  constructor(options: SqliteRunStoreOptions & { rate: number }) {
    super(options);
    this.rate = options.rate;
  }

  protected override injectFault(_operation: 'append', _point: 'before-commit' | 'after-commit'): void {
    if (Math.random() >= this.rate) return;
    this.injected += 1;
    throw new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
  }
}

/** Acquires a new run `runId` for owner `o` (a minute's lease and deadline). */
function acquireNew(store: SqliteRunStore, runId: string) {
  return store.acquire({
    runId,
    sessionId: 's',
    ownerId: 'o',
    leaseMs: 60_000,
    deadlineAt: Date.now() + 60_000,
    initialEntries: [{ type: 'run-started', data: {} }],
  });
}

describe('SQLite faults during 100 runs (issue 18)', () => {
  it('survives another connection holding the write lock (SQLITE_BUSY): 0 duplicates, 0 lost results', async () => {
    const path = join(directory, 'busy.db');
    // A short lock wait, so that the lock holder makes the store report BUSY to the engine.
    const store = new SqliteRunStore({ path, busyTimeoutMs: 10 });
    const holder = new Database(path);
    const countFile = join(directory, 'busy.txt');
    writeFileSync(countFile, '');
    let running = true;
    let held = 0;
    const locker = (async () => {
      while (running) {
        await sleep(15);
        holder.exec('BEGIN IMMEDIATE');
        held += 1;
        await sleep(40);
        holder.exec('COMMIT');
      }
    })();
    const report = await runCountedRuns({ store, countFile, runs: 100, concurrency: 10, label: 'busy' });
    running = false;
    await locker;
    holder.close();
    await store.close();
    expect(report.duplicates).toEqual([]);
    expect(report.lost).toEqual([]);
    expect(held).toBeGreaterThan(0);
    expect(report.transientFailures).toBeGreaterThan(0);
  }, 120_000);

  it('survives failed disk writes (SQLITE_IOERR) before and after the commit: 0 duplicates, 0 lost results', async () => {
    const store = new FailingDiskStore({ path: join(directory, 'ioerr.db'), rate: 0.15 });
    const countFile = join(directory, 'ioerr.txt');
    writeFileSync(countFile, '');
    const report = await runCountedRuns({ store, countFile, runs: 100, concurrency: 10, label: 'ioerr' });
    await store.close();
    expect(report.duplicates).toEqual([]);
    expect(report.lost).toEqual([]);
    expect(store.injected).toBeGreaterThan(0);
    expect(report.transientFailures).toBeGreaterThan(0);
  }, 120_000);

  it('waits for a lock without blocking the event loop, and reports a lock that never frees as a transient StoreFailureError', async () => {
    const path = join(directory, 'event-loop.db');
    const store = new SqliteRunStore({ path, busyTimeoutMs: 5_000 });
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    // Only this process's own timer frees the lock: a store that waited for it synchronously
    // would hold the event loop until its busy timeout and fail, since the timer could not fire.
    setTimeout(() => holder.exec('COMMIT'), 100);
    expect((await acquireNew(store, 'r')).outcome).toBe('created');

    holder.exec('BEGIN IMMEDIATE');
    const short = new SqliteRunStore({ path, busyTimeoutMs: 30 });
    const error = await short.append({ runId: 'r', epoch: 1, entries: [{ type: 'x', data: 1 }] }).catch((caught) => caught);
    expect(error).toMatchObject({ code: 'store-failure', transient: true });
    expect(error.name).toBe('StoreFailureError');
    holder.exec('ROLLBACK');
    holder.close();
    await short.close();
    await store.close();
  });

  it("tries again at the next turn of the event loop when another connection's commit frees the lock soon, not after a timer (issue 34)", async () => {
    const path = join(directory, 'lock-spin.db');
    const store = new SqliteRunStore({ path, busyTimeoutMs: 5_000 });
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    // The other writer commits at this loop's next turn, as a commit of another process frees the
    // lock within a fraction of a millisecond: the store's call refused meanwhile sets no timer.
    setImmediate(() => holder.exec('COMMIT'));
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      expect((await acquireNew(store, 'spin')).outcome).toBe('created');
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
    holder.close();
    await store.close();
  });

  it('stops a run whose database file is deleted under the worker instead of reporting it succeeded', async () => {
    const path = join(directory, 'deleted-under-worker.db');
    const store = new SqliteRunStore({ path });
    let release: () => void = () => {};
    let started: () => void = () => {};
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const wait = tool({
      name: 'wait',
      description: 'Waits to be released.',
      parameters: z.object({}),
      execute: () =>
        new Promise<string>((resolve) => {
          release = () => resolve('released');
          started();
        }),
    });
    const model = new ScriptedModel({
      respond: (request) =>
        request.messages.some((message) => message.role === 'tool') ? { text: 'done' } : { toolCalls: [{ name: 'wait' }] },
    });
    const agent = new Agent({ name: 'deleted', mode: 'react', model, prompt: 'p', tools: [wait], store });
    const run = agent.run({ sessionId: 's', input: 'go' });
    await toolStarted;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    release();
    const outcome = await run.result().then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await store.close();
    expect(outcome).toMatchObject({ error: { code: 'store-file-changed' } });
  });
});
