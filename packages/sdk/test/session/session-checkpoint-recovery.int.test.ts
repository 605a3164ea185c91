/**
 * Session checkpoints across real processes (ADR 0012, H-8, R-5): a process SIGKILLed inside a
 * checkpoint's compression call, or right after its summary was saved, is resumed by another:
 * the first redoes the compression from the same input, the second reuses the saved summary, and
 * the session ends with the same checkpoints and the same history as a run that never crashed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { runScript } from '../helpers/child-process.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'checkpoint-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-checkpoint-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const RUNS = 8;

/** Every run's checkpoint records, without usage and creation times: what each covers and its summary. */
async function checkpointsOf(database: string) {
  const store = new SqliteRunStore({ path: database });
  try {
    const found: Array<{ runId: string; type: string; data: unknown }> = [];
    for (let index = 1; index <= RUNS; index += 1) {
      for (const entry of await store.readJournal(`run-${index}`)) {
        if (!entry.type.startsWith('checkpoint-')) continue;
        const { usage: _usage, through, ...data } = entry.data as { usage?: unknown; through: { runId: string } };
        found.push({ runId: `run-${index}`, type: entry.type, data: { ...data, through: through.runId } });
      }
    }
    return found;
  } finally {
    await store.close();
  }
}

describe('session checkpoints survive a crash (ADR 0012)', () => {
  it('redoes a checkpoint interrupted in its compression call and reuses one already saved', async () => {
    const baselineDatabase = join(directory, 'baseline.db');
    const baseline = await runScript(script, { CHECKPOINT_DATABASE: baselineDatabase, CHECKPOINT_RUNS: String(RUNS) });
    expect(baseline.stderr).toBe('');
    expect(baseline.values.FAILED).toBeUndefined();
    const expected = await checkpointsOf(baselineDatabase);
    expect(expected.filter((entry) => entry.type === 'checkpoint-committed').length).toBeGreaterThan(1);
    const total = baseline.values['CHECKPOINT-CALLS'] as number;
    for (const point of ['checkpoint-call', 'after-checkpoint']) {
      const database = join(directory, `${point}.db`);
      const options = { CHECKPOINT_DATABASE: database, CHECKPOINT_RUNS: String(RUNS) };
      const crashed = await runScript(script, { ...options, CHECKPOINT_FREEZE: point });
      expect(crashed.killed).toBe(true);
      const before = crashed.values['CHECKPOINT-CALLS'] as number;
      const resumed = await runScript(script, options);
      expect(resumed.stderr).toBe('');
      expect(resumed.values.FAILED).toBeUndefined();
      // Same checkpoints (one `checkpoint-started` each, never a second), same final history.
      expect(await checkpointsOf(database)).toEqual(expected);
      expect(resumed.values['LAST-REQUEST']).toEqual(baseline.values['LAST-REQUEST']);
      // Interrupted in the call: that compression is redone; saved: it is reused, not asked again.
      expect(resumed.values['CHECKPOINT-CALLS']).toBe(point === 'checkpoint-call' ? total - before + 1 : total - before);
    }
  }, 90_000);
});
