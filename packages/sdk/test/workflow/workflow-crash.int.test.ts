/**
 * Workflow crash recovery across real processes (R-6, R-7, W-8; A-2), on SQLite and PostgreSQL:
 * a child process running a workflow is SIGKILLed mid-superstep or while an agent node's inner
 * agent is mid-loop; a new process resumes the same run id from the same store. Side effects
 * (tool executions, model calls) are counted in a file that survives the kill.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { innerRunIdOf, type WorkflowResult } from '../../src/engine/workflow/index.js';
import { type CrashStoreTarget, postgresCrashTarget, sqliteCrashTarget } from '../crash/crash-store-target.js';
import { runScript } from '../helpers/child-process.js';
import { describeWithPostgres, dropSchema, postgresUrlWithSchema, uniqueSchemaName } from '../postgres/postgres-availability.js';

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'workflow-crash-child.ts');

interface ChildRun {
  result?: WorkflowResult;
  frozenAt?: string;
  stderr: string;
}

async function runChild(options: {
  store: string;
  runId: string;
  effects: string;
  scenario: 'branches' | 'agents' | 'retry' | 'continue' | 'unknown';
  freeze?: string;
  continueFrom?: string;
  failSecond?: boolean;
  retryUnknown?: boolean;
}) {
  const run = await runScript(childScript, {
    WF_STORE: options.store,
    WF_RUN_ID: options.runId,
    WF_EFFECTS: options.effects,
    WF_SCENARIO: options.scenario,
    WF_FREEZE: options.freeze ?? '',
    WF_CONTINUE_FROM: options.continueFrom ?? '',
    WF_FAIL_SECOND: options.failSecond ? '1' : '',
    WF_RETRY_UNKNOWN: options.retryUnknown ? '1' : '',
  });
  const outcome: ChildRun = { stderr: run.stderr };
  if (run.frozenAt !== undefined) outcome.frozenAt = run.frozenAt;
  if (run.values.RESULT !== undefined) outcome.result = run.values.RESULT as NonNullable<ChildRun['result']>;
  return outcome;
}

/** What the two agents of the `agents` scenario answer, as an uncrashed run gives it. */
const agentSummaries = [
  'fast read documents about tides: fast-step-1',
  'slow read documents about tides: slow-step-1, slow-step-2',
];

const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
const countOf = (all: readonly string[], prefix: string) => all.filter((line) => line.startsWith(prefix)).length;

function workflowCrashSuite(createTarget: () => CrashStoreTarget | Promise<CrashStoreTarget>): void {
  let target: CrashStoreTarget;
  let caseNumber = 0;
  beforeAll(async () => {
    target = await createTarget();
  });
  afterAll(async () => {
    await target?.dispose();
  });
  const files = (name: string) => {
    caseNumber += 1;
    return {
      store: target.storeUrl(caseNumber),
      runId: `wf-${name}-${process.pid}-${caseNumber}`,
      effects: join(target.directory, `wf-${name}-${caseNumber}.effects`),
    };
  };

  it('killed mid-superstep with some parallel branches saved: only the unfinished branches run again', async () => {
    const crash = files('branches');
    const first = await runChild({ ...crash, scenario: 'branches', freeze: 'branches-mid-step' });
    expect(first.frozenAt, `child did not freeze: ${JSON.stringify(first)}`).toBe('c and d running, a and b saved');
    const before = lines(crash.effects);
    expect(before.sort()).toEqual(['tool a 1/a', 'tool b 1/b', 'tool c 1/c', 'tool d 1/d', 'tool split 0/split']);
    const saved = await target.read(crash.store, async (store) =>
      (await store.readJournal(crash.runId)).filter((entry) => entry.type === 'task-finished').map((entry) => entry.taskId),
    );
    expect(saved.sort()).toEqual(['0/split', '1/a', '1/b']);

    const second = await runChild({ ...crash, scenario: 'branches' });
    expect(second.stderr).toBe('');
    // The same outcome as a run that never crashed: every branch's result, in planned order.
    expect(second.result).toMatchObject({
      status: 'succeeded',
      output: { results: ['a done', 'b done', 'c done', 'd done', 'gather done'] },
    });
    const after = lines(crash.effects).slice(before.length);
    // Only c and d ran again (same task ids, so the same operation ids), then the join once.
    expect(after.sort()).toEqual(['tool c 1/c', 'tool d 1/d', 'tool gather 2/gather']);
    // Not silently: their cut calls were recorded `unknown-outcome` and retried by their policy.
    const unknown = await target.read(crash.store, async (store) =>
      (await store.readJournal(crash.runId))
        .filter((entry) => entry.type === 'task-attempt-failed')
        .map((entry) => `${entry.taskId} ${(entry.data as { failure: { failure?: { kind: string } } }).failure.failure?.kind}`),
    );
    expect(unknown.sort()).toEqual(['1/c unknown-outcome', '1/d unknown-outcome']);
    const all = lines(crash.effects);
    expect([countOf(all, 'tool a '), countOf(all, 'tool b '), countOf(all, 'tool split ')]).toEqual([1, 1, 1]);
  }, 60_000);

  for (const retryUnknown of [false, true]) {
    it(`killed inside a tool node's call: the outcome is unknown, never a silent second call (X-7; ${retryUnknown ? 'retried by policy' : 'no retry'})`, async () => {
      const crash = files(`unknown-${retryUnknown ? 'retry' : 'plain'}`);
      const first = await runChild({ ...crash, scenario: 'unknown', freeze: 'charge-mid-call', retryUnknown });
      expect(first.frozenAt, `child did not freeze: ${JSON.stringify(first)}`).toBe('charge called, no outcome saved');
      expect(lines(crash.effects)).toEqual(['tool charge 0/charge attempt-1']);
      const second = await runChild({ ...crash, scenario: 'unknown', retryUnknown });
      expect(second.stderr).toBe('');
      if (retryUnknown) {
        // The policy asked for it: a second, recorded attempt after the unknown one.
        expect(second.result).toMatchObject({ status: 'succeeded', output: { receipt: 'charged 42' } });
        expect(lines(crash.effects)).toEqual(['tool charge 0/charge attempt-1', 'tool charge 0/charge attempt-2']);
      } else {
        // No policy: the taker does not call the card again; the run ends saying why.
        expect(second.result).toMatchObject({
          status: 'failed',
          failure: { node: 'charge', kind: 'tool-failed', failure: { kind: 'unknown-outcome' } },
        });
        expect(lines(crash.effects)).toEqual(['tool charge 0/charge attempt-1']);
      }
      const failed = await target.read(crash.store, async (store) =>
        (await store.readJournal(crash.runId)).filter(
          (entry) => entry.type === 'task-attempt-failed' || entry.type === 'task-failed',
        ),
      );
      expect(failed.map((entry) => entry.type)).toEqual([retryUnknown ? 'task-attempt-failed' : 'task-failed']);
    }, 60_000);
  }

  it('killed while an agent node is mid-loop: the same inner run continues, the finished agent node never runs again', async () => {
    const crash = files('agents');
    const first = await runChild({ ...crash, scenario: 'agents', freeze: 'agent-mid-loop' });
    expect(first.frozenAt, `child did not freeze: ${JSON.stringify(first)}`).toBe('slow agent asks for loop 2, fast agent saved');
    const before = lines(crash.effects);
    expect(before.filter((line) => line.startsWith('model'))).toEqual(
      expect.arrayContaining(['model fast loop-1', 'model fast loop-2', 'model slow loop-1', 'model slow loop-2']),
    );

    const second = await runChild({ ...crash, scenario: 'agents' });
    expect(second.stderr).toBe('');
    expect(second.result).toMatchObject({ status: 'succeeded', output: { summaries: agentSummaries }, loops: 5 });
    const after = lines(crash.effects).slice(before.length);
    // The fast agent was not asked again; the slow agent went on from its second loop (the
    // model call in flight at the kill is asked again, loop 1 is not), then the report was saved.
    expect(after).toEqual(['model slow loop-2', 'tool slow-2 entry/2/0', 'model slow loop-3', 'tool save 2/save']);
    expect(countOf(lines(crash.effects), 'tool lookup ')).toBe(1);
    await target.read(crash.store, async (store) => {
      const journal = await store.readJournal(crash.runId);
      // One invocation per agent node, recorded once: the resume reattached, it did not invoke again.
      expect(journal.filter((entry) => entry.type === 'agent-invoked').map((entry) => entry.data)).toEqual([
        { step: 1, runId: innerRunIdOf(crash.runId, '1/fast'), sessionId: innerRunIdOf(crash.runId, '1/fast') },
        { step: 1, runId: innerRunIdOf(crash.runId, '1/slow'), sessionId: innerRunIdOf(crash.runId, '1/slow') },
      ]);
      // The slow agent's inner run was taken over (epoch 2), the fast one's was never touched again.
      expect(await store.getRun(innerRunIdOf(crash.runId, '1/slow'))).toMatchObject({
        status: 'succeeded',
        epoch: 2,
        loopsUsed: 3,
      });
      expect(await store.getRun(innerRunIdOf(crash.runId, '1/fast'))).toMatchObject({
        status: 'succeeded',
        epoch: 1,
        loopsUsed: 2,
      });
      expect(await store.getRun(crash.runId)).toMatchObject({ status: 'succeeded', epoch: 2, loopsUsed: 5 });
    });
  }, 60_000);

  it('killed after an agent finished but before its node was saved: the result is read back, not recomputed', async () => {
    const crash = files('agents-unsaved');
    const first = await runChild({ ...crash, scenario: 'agents', freeze: 'agent-finished-unsaved' });
    expect(first.frozenAt, `child did not freeze: ${JSON.stringify(first)}`).toBe('fast agent finished, its node not saved');
    const before = lines(crash.effects);
    expect(countOf(before, 'model fast ')).toBe(2);

    const second = await runChild({ ...crash, scenario: 'agents' });
    expect(second.stderr).toBe('');
    // The fast agent's answer is the one its first process produced. (The slow agent was wherever
    // the kill found it; a tool call of its own caught in flight is recorded unknown, X-7.)
    expect(second.result?.status).toBe('succeeded');
    expect((second.result?.output?.summaries as string[] | undefined)?.[0]).toBe(agentSummaries[0]);
    const all = lines(crash.effects);
    expect(countOf(all, 'model fast ')).toBe(2);
    expect(countOf(all, 'tool fast-')).toBe(1);
    expect(countOf(all, 'tool lookup ')).toBe(1);
    expect(countOf(all, 'tool save ')).toBe(1);
  }, 60_000);

  it('killed while a retried node waits between attempts: the attempts go on where they were, never reset', async () => {
    const crash = files('retry');
    const first = await runChild({ ...crash, scenario: 'retry', freeze: 'retry-waiting' });
    expect(first.frozenAt, `child did not freeze: ${JSON.stringify(first)}`).toBe(
      'second failed attempt saved, waiting to retry',
    );
    expect(lines(crash.effects)).toEqual(['attempt 1 0/flaky', 'attempt 2 0/flaky']);

    const second = await runChild({ ...crash, scenario: 'retry' });
    expect(second.stderr).toBe('');
    expect(second.result).toMatchObject({ status: 'succeeded', output: { answer: 'answered hello on attempt 3' } });
    // The new process went on with attempt 3 under the same operation id; attempts 1 and 2 did not run again.
    expect(lines(crash.effects)).toEqual(['attempt 1 0/flaky', 'attempt 2 0/flaky', 'attempt 3 0/flaky']);
    await target.read(crash.store, async (store) => {
      const journal = await store.readJournal(crash.runId);
      expect(journal.filter((entry) => entry.type === 'task-attempt-failed').map((entry) => entry.data)).toMatchObject([
        { step: 0, attempt: 1 },
        { step: 0, attempt: 2 },
      ]);
    });
  }, 60_000);

  it('killed during a run that continues a failed one: it resumes, and nodes before the failure ran once in all', async () => {
    const crash = files('continue');
    const failedRunId = `${crash.runId}-failed`;
    const failed = await runChild({ ...crash, runId: failedRunId, scenario: 'continue', failSecond: true });
    expect(failed.result).toMatchObject({ status: 'failed', reason: 'node-failed', failure: { node: 'second' } });
    const failedJournal = await target.read(crash.store, (store) => store.readJournal(failedRunId));
    const failedRecord = await target.read(crash.store, (store) => store.getRun(failedRunId));

    const killed = await runChild({ ...crash, scenario: 'continue', continueFrom: failedRunId, freeze: 'continue-third' });
    expect(killed.frozenAt, `child did not freeze: ${JSON.stringify(killed)}`).toBe('third running in the continued run');
    const resumed = await runChild({ ...crash, scenario: 'continue', continueFrom: failedRunId });
    expect(resumed.stderr).toBe('');
    expect(resumed.result).toMatchObject({
      status: 'succeeded',
      continues: { runId: failedRunId, from: 'failure' },
      output: { trail: ['first', 'second', 'third', 'fourth'] },
    });
    // The ledger of both runs: first ran once (reused), second failed then ran once more, third ran
    // again after the kill (same task id), fourth once.
    expect(lines(crash.effects)).toEqual([
      'node first 0/first',
      'node second 1/second',
      'node second 1/second',
      'node third 2/third',
      'node third 2/third',
      'node fourth 3/fourth',
    ]);
    await target.read(crash.store, async (store) => {
      // NOT-6: the failed run is still failed and unchanged.
      expect(await store.readJournal(failedRunId)).toEqual(failedJournal);
      expect(await store.getRun(failedRunId)).toEqual(failedRecord);
      expect(await store.getRun(crash.runId)).toMatchObject({ status: 'succeeded', epoch: 2 });
    });
  }, 60_000);
}

describe('workflow crash recovery on SQLite', () => {
  workflowCrashSuite(sqliteCrashTarget);
});

await describeWithPostgres('workflow crash recovery on PostgreSQL', () => {
  workflowCrashSuite(() => {
    const schema = uniqueSchemaName('workflow_crash');
    return postgresCrashTarget({ schema, storeUrl: postgresUrlWithSchema(schema), dropSchema });
  });
});
