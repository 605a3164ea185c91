/**
 * The count of consecutive invalid-tool-call loops is journaled like everything else: a process
 * SIGKILLed after two invalid loops leaves a run whose resumed owner ends it after the remaining
 * allowance (default 3, so 4 invalid loops in all), not after a fresh one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { runScript } from '../helpers/child-process.js';

const child = join(import.meta.dirname, 'invalid-tool-calls-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-invalid-calls-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('invalid tool calls across a crash', () => {
  it('a resumed run keeps the count of invalid loops from its journal and ends invalid-tool-calls on time', async () => {
    const path = join(directory, 'runs.sqlite');
    const environment = { INVALID_STORE: path, INVALID_RUN_ID: 'run-invalid-1' };
    const crashed = await runScript(child, { ...environment, INVALID_FREEZE_AFTER: '2' });
    expect(crashed.frozenAt).toBe('model-request-after-2');
    expect(crashed.killed).toBe(true);
    const resumed = await runScript(child, environment);
    expect(resumed.values.RESULT, resumed.stderr).toMatchObject({
      status: 'failed',
      reason: 'invalid-tool-calls',
      loops: 4,
    });
    const store = new SqliteRunStore({ path });
    try {
      const journal = await store.readJournal('run-invalid-1');
      const failures = journal
        .filter((entry) => entry.type === 'operation-finished')
        .map((entry) => (entry.data as { failure?: { kind: string } }).failure?.kind);
      expect(failures).toEqual(['invalid-arguments', 'invalid-arguments', 'invalid-arguments', 'invalid-arguments']);
      expect(journal.filter((entry) => entry.type === 'loop-started')).toHaveLength(4);
    } finally {
      await store.close();
    }
  });
});
