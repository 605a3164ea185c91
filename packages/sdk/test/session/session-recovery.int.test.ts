/**
 * Session features across real processes: a crash during and right after compression resumes with
 * the same summary and coverage (H-8, R-5); a supplement carried into the next run is carried
 * exactly once, also when that run crashes right after its creation (S-4).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { runScript } from '../helpers/child-process.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'session-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-session-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function journalOf(database: string, runId: string) {
  const store = new SqliteRunStore({ path: database });
  try {
    return await store.readJournal(runId);
  } finally {
    await store.close();
  }
}

const compressions = (journal: Awaited<ReturnType<typeof journalOf>>) =>
  journal
    .filter((entry) => entry.type === 'compression-committed')
    .map((entry) => entry.data as { coveredUpTo: number; summary: string });

describe('compression survives a crash (H-8)', () => {
  it('resumes with the same summary and coverage after a crash during and right after compression', async () => {
    const baselineDatabase = join(directory, 'baseline.db');
    const baseline = await runScript(script, {
      SESSION_SCENARIO: 'compression',
      SESSION_DATABASE: baselineDatabase,
      SESSION_RUN_ID: 'compression-run',
      SESSION_INPUT: 'take six notes',
    });
    expect(baseline.stderr).toBe('');
    const expected = compressions(await journalOf(baselineDatabase, 'compression-run'));
    expect(expected.length).toBeGreaterThan(0);
    for (const point of ['compression-call', 'after-compression']) {
      const database = join(directory, `${point}.db`);
      const options = {
        SESSION_SCENARIO: 'compression',
        SESSION_DATABASE: database,
        SESSION_RUN_ID: 'compression-run',
        SESSION_INPUT: 'take six notes',
      };
      const crashed = await runScript(script, { ...options, SESSION_FREEZE: point });
      expect(crashed.killed).toBe(true);
      const resumed = await runScript(script, options);
      expect(resumed.stderr).toBe('');
      expect(resumed.values.RESULT).toMatchObject({
        status: 'succeeded',
        output: (baseline.values.RESULT as { output: string }).output,
      });
      const journal = await journalOf(database, 'compression-run');
      expect(compressions(journal)).toEqual(expected);
      expect(journal.filter((entry) => entry.type === 'loop-started')).toHaveLength(
        (baseline.values.RESULT as { loops: number }).loops,
      );
    }
  }, 60_000);
});

describe('carried supplements survive a crash (S-4)', () => {
  it('carries an unconsumed supplement into the next run exactly once, across a crash right after that run was created', async () => {
    const database = join(directory, 'carry.db');
    const base = { SESSION_SCENARIO: 'carry', SESSION_DATABASE: database };
    // Run 1 is created by a process that dies at once; a supplement then reaches it, and it ends
    // before consuming it — what a supplement racing the final answer leaves behind (the race
    // itself is tested in-process in session.test.ts).
    expect(
      (
        await runScript(script, {
          ...base,
          SESSION_RUN_ID: 'run-1',
          SESSION_INPUT: 'first question',
          SESSION_FREEZE: 'after-create',
        })
      ).killed,
    ).toBe(true);
    const store = new SqliteRunStore({ path: database });
    await store.appendExternal({
      runId: 'run-1',
      entries: [{ type: 'supplement-accepted', taskId: 'entry', data: { supplementId: 'late-1', text: 'late detail' } }],
    });
    await new Promise((resolve) => setTimeout(resolve, 350));
    const owner = await store.acquire({
      runId: 'run-1',
      sessionId: 'session',
      ownerId: 'closer',
      leaseMs: 60_000,
      deadlineAt: 0,
      initialEntries: [],
    });
    const final = {
      runId: 'run-1',
      sessionId: 'session',
      status: 'stopped' as const,
      reason: 'user-stop' as const,
      loops: 0,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    await store.append({
      runId: 'run-1',
      epoch: owner.run.epoch,
      entries: [{ type: 'run-finished', data: final }],
      terminal: final,
    });
    await store.close();

    const crashed = await runScript(script, {
      ...base,
      SESSION_RUN_ID: 'run-2',
      SESSION_INPUT: 'second question',
      SESSION_FREEZE: 'after-create',
    });
    expect(crashed.killed).toBe(true);
    const resumed = await runScript(script, { ...base, SESSION_RUN_ID: 'run-2', SESSION_INPUT: 'second question' });
    expect(resumed.stderr).toBe('');
    const users = resumed.values['USER-MESSAGES'] as string[];
    expect(users.filter((text) => text === 'late detail')).toHaveLength(1);
    expect(users.at(-1)).toBe('second question');
    const third = await runScript(script, { ...base, SESSION_RUN_ID: 'run-3', SESSION_INPUT: 'third question' });
    expect(third.stderr).toBe('');
    expect((third.values['USER-MESSAGES'] as string[]).filter((text) => text === 'late detail')).toHaveLength(0);
  }, 60_000);
});
