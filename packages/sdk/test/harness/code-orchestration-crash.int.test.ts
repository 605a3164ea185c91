/**
 * A run killed inside a code-orchestrated script (N-15, issue 37): a real child process runs a
 * script that calls `step` three times and is SIGKILLed during the third call, after the first two
 * were saved. The taker runs the script again: the first two calls are replayed from the journal
 * (the tool is not called again — counted at the tool), the third, whose outcome was lost, goes
 * through the retry rules of a direct call, and the script's result reaches the model once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Agent } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { describeWithBubblewrap } from '../capabilities/bubblewrap-availability.js';
import { resumeAfterOwner, runScript } from '../helpers/child-process.js';
import { scriptAgentOptions } from './code-orchestration-fixture.js';

describeWithBubblewrap('a run killed inside a script (N-15)', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-script-crash-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is finished by a taker that never calls the first two tools again', { timeout: 90_000 }, async () => {
    const file = path.join(directory, 'runs.sqlite');
    const calls = path.join(directory, 'calls.txt');
    writeFileSync(calls, '');
    const runId = 'run-script-crash';
    const child = await runScript(new URL('./code-orchestration-child.ts', import.meta.url).pathname, {
      SCRIPT_STORE: `sqlite:${file}`,
      SCRIPT_RUN_ID: runId,
      SCRIPT_CALLS: calls,
    });
    expect(child.frozenAt, child.stderr).toBe('third-call');
    expect(child.killed).toBe(true);
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['child 1', 'child 2', 'child 3']);

    const store = new SqliteRunStore({ path: file });
    try {
      const before = await store.readJournal(runId);
      expect(before.filter((entry) => entry.type === 'script-call-started')).toHaveLength(3);
      const options = scriptAgentOptions(store, (n) => writeFileSync(calls, `taker ${n}\n`, { flag: 'a' }));
      const result = await resumeAfterOwner(() => new Agent(options).run({ runId, sessionId: `session-${runId}` }).result());
      expect(result).toMatchObject({
        status: 'succeeded',
        output: 'script said ["step 1 done","step 2 done","step 3 done"]',
      });
      // Counted at the tool: the taker made only the call whose outcome the crash lost.
      expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['child 1', 'child 2', 'child 3', 'taker 3']);
      // The model's first response (the script) was saved: the taker asked only for the answer.
      expect(options.model.requestCount).toBe(1);
      const journal = await store.readJournal(runId);
      const inner = journal.filter((entry) => entry.type === 'script-call-started');
      expect(inner.map((entry) => (entry.data as { operationId: string }).operationId)).toEqual([
        'entry/1/0#0',
        'entry/1/0#1',
        'entry/1/0#2',
      ]);
      const third = journal.filter(
        (entry) => entry.type === 'attempt-failed' && (entry.data as { operationId: string }).operationId === 'entry/1/0#2',
      );
      expect(third.map((entry) => (entry.data as { failure: { kind: string } }).failure.kind)).toEqual(['unknown-outcome']);
    } finally {
      await store.close();
    }
  });
});
