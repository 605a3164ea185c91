import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteRunStore } from './sqlite-run-store.js';

describe('SQLite calls and the event loop (issue 34)', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('a long chain of store calls lets the event loop turn, so timers and streams of the process run meanwhile', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-turns-'));
    directories.push(directory);
    const store = new SqliteRunStore({ path: path.join(directory, 'runs.sqlite') });
    // Each call settles at once (better-sqlite3 is synchronous): without a turn of the loop
    // between them, this chain would run to its 2-second bound before the immediate could fire.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const started = performance.now();
    let calls = 0;
    while (!turned && performance.now() - started < 2_000) {
      expect(await store.getRun('run-that-does-not-exist')).toBeUndefined();
      calls += 1;
    }
    expect(turned).toBe(true);
    expect(calls).toBeGreaterThan(0);
    await store.close();
  });
});
