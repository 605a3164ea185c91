import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from './sqlite-run-store.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-checkpoints-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs in the database file alone (its WAL left behind): what a checkpoint has copied there. */
function checkpointedRuns(path: string, copy: string): number {
  copyFileSync(path, copy);
  rmSync(`${copy}-wal`, { force: true });
  const database = new Database(copy, { readonly: true });
  try {
    // Before the first checkpoint even the table is only in the WAL.
    if (!database.prepare("SELECT 1 FROM sqlite_master WHERE name = 'agentloom_runs'").get()) return 0;
    return (database.prepare('SELECT count(*) AS runs FROM agentloom_runs').get() as { runs: number }).runs;
  } finally {
    database.close();
  }
}

/** A store with `runs` runs created in it. */
async function storeWithRuns(path: string, checkpoints: 'automatic' | 'background', runs: number) {
  const store = new SqliteRunStore({ path, checkpoints });
  for (let index = 0; index < runs; index += 1)
    await store.createRun({
      runId: `run-${index}`,
      sessionId: `session-${index}`,
      labels: { kind: 'agent', name: 'checkpointed', metadata: {} },
      entries: [],
    });
  return store;
}

// Issue 34: the automatic checkpoint runs inside the commit that crosses 1,000 WAL pages, on the
// committing thread; `checkpoints: 'background'` copies the WAL from a thread of its own.
describe("SqliteRunStore's background checkpoints", () => {
  it('copy committed runs into the database file without any commit doing it', async () => {
    const automatic = await storeWithRuns(join(directory, 'automatic.db'), 'automatic', 20);
    const background = await storeWithRuns(join(directory, 'background.db'), 'background', 20);
    try {
      // Far below 1,000 WAL pages: SQLite's own checkpoint has not run, so the file alone has none.
      expect(checkpointedRuns(join(directory, 'automatic.db'), join(directory, 'automatic-copy.db'))).toBe(0);
      // The checkpointer thread copies them within a few ticks (bounded by the test's timeout).
      const copy = join(directory, 'background-copy.db');
      while (checkpointedRuns(join(directory, 'background.db'), copy) < 20)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(checkpointedRuns(join(directory, 'background.db'), copy)).toBe(20);
      expect(await background.getRun('run-19')).toMatchObject({ runId: 'run-19', status: 'pending' });
    } finally {
      await automatic.close();
      await background.close();
    }
  });

  it('stops its thread when the store closes, after a last checkpoint', async () => {
    const path = join(directory, 'closing.db');
    const store = await storeWithRuns(path, 'background', 3);
    await store.close();
    expect(checkpointedRuns(path, join(directory, 'closing-copy.db'))).toBe(3);
  });

  it('lets a process that awaits the close end normally (the thread is held while it stops)', () => {
    // A script whose last await is the close: were the stopping thread not held, Node would find
    // nothing left to run, end the process with the await unsettled (exit code 13) and no output.
    const store = fileURLToPath(new URL('./sqlite-run-store.ts', import.meta.url));
    const script = `const { SqliteRunStore } = await import(${JSON.stringify(store)});
const store = new SqliteRunStore({ path: ${JSON.stringify(join(directory, 'exiting.db'))}, checkpoints: 'background' });
await store.close();
console.log('closed');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8' });
    expect([child.status, child.stdout.trim()], child.stderr).toEqual([0, 'closed']);
  });
});
