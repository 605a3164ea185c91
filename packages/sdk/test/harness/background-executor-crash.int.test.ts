/**
 * A run killed while a background executor task runs (N-7): a real child process is SIGKILLed
 * during the task's first model call. The taker starts the unfinished task again from its journal
 * (not created twice, the delegation not made again) and the result reaches the planner as a
 * later input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { resumeAfterOwner, runScript } from '../helpers/child-process.js';
import { backgroundCrashAgent } from './background-executor-fixture.js';

describe('a run killed while a background task runs (N-7)', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-background-crash-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is finished by a taker that continues the same task', { timeout: 60_000 }, async () => {
    const file = path.join(directory, 'runs.sqlite');
    const runId = 'run-background-crash';
    const child = await runScript(new URL('./background-executor-child.ts', import.meta.url).pathname, {
      BACKGROUND_STORE: `sqlite:${file}`,
      BACKGROUND_RUN_ID: runId,
    });
    expect(child.frozenAt, child.stderr).toBe('background-task-running');

    const store = new SqliteRunStore({ path: file });
    try {
      let researcherCalls = 0;
      const agent = backgroundCrashAgent(store, () => {
        researcherCalls += 1;
        return { text: 'Paris' };
      });
      const result = await resumeAfterOwner(() => agent.run({ runId, sessionId: `session-${runId}` }).result());
      expect(result).toMatchObject({ status: 'succeeded', output: 'final: Paris' });
      expect(researcherCalls).toBe(1);
      const journal = await store.readJournal(runId);
      expect(journal.filter((entry) => entry.type === 'task-created')).toHaveLength(1);
      expect(journal.filter((entry) => entry.type === 'task-finished')).toHaveLength(1);
      const results = journal.filter(
        (entry) =>
          entry.type === 'supplement-accepted' &&
          String((entry.data as { supplementId: string }).supplementId).startsWith('background:'),
      );
      expect(results).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
