import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunId } from '../../core/ids.js';
import { SqliteRunStore } from './sqlite-run-store.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-sqlite-pages-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A WAL frame: a 24-byte header and a page of the default 4,096 bytes. */
const FRAME_BYTES = 24 + 4096;
const RUNS = 10;
const APPENDS = 24;
/** Runs already in the file, written in one transaction before the measure. */
const EARLIER_RUNS = 300;

/** Fills a new store file with `EARLIER_RUNS` runs of 20 entries each, ids from `runId`. */
async function fill(path: string, runId: () => string): Promise<void> {
  await new SqliteRunStore({ path }).close();
  const database = new Database(path);
  const insert = database.prepare(
    'INSERT INTO agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES (?, ?, 1, ?, NULL, ?, 0)',
  );
  database.transaction(() => {
    for (let run = 0; run < EARLIER_RUNS; run += 1) {
      const id = runId();
      for (let sequence = 1; sequence <= 20; sequence += 1) insert.run(id, sequence, 'task-finished', 'x'.repeat(600));
    }
  })();
  database.close();
}

/**
 * WAL frames (pages) written per append (the run's creation included) by runs made one after another
 * in a file that holds earlier runs, each appending
 * entries of a team turn's size (alternately about 450 and 900 bytes), below the automatic
 * checkpoint (1,000 frames), so that the WAL only grows.
 */
async function framesPerAppend(name: string, runId: () => string): Promise<number> {
  const path = join(directory, `${name}.db`);
  await fill(path, runId);
  const store = new SqliteRunStore({ path });
  try {
    const before = statSync(`${path}-wal`).size;
    for (let run = 0; run < RUNS; run += 1) {
      const id = runId();
      const { run: record } = await store.acquire({
        runId: id,
        sessionId: `session-${run}`,
        ownerId: 'owner',
        leaseMs: 60_000,
        deadlineAt: Date.now() + 60_000,
        initialEntries: [{ type: 'workflow-started', data: { input: 'x' } }],
      });
      for (let append = 0; append < APPENDS; append += 1) {
        const text = 'x'.repeat(append % 2 === 0 ? 400 : 850);
        const entries = [{ type: 'task-finished', taskId: `${append}/turn`, data: { text } }];
        await store.append({ runId: id, epoch: record.epoch, entries });
      }
    }
    return (statSync(`${path}-wal`).size - before) / FRAME_BYTES / (RUNS * APPENDS);
  } finally {
    await store.close();
  }
}

describe('SQLite journal pages per append (issue 31)', () => {
  it('a run made later appends at the end of the journal index: fewer pages per commit than with random ids', async () => {
    const ordered = await framesPerAppend('ordered', createRunId);
    const random = await framesPerAppend('random', () => `run_${randomUUID()}`);
    // Measured: 2.9 pages per append with time-ordered ids, 4.2 with random ones.
    expect(ordered).toBeLessThanOrEqual(3.2);
    expect(ordered).toBeLessThan(random * 0.8);
  });
});
