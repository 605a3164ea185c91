/**
 * The input node (issue 36) on real stores, SQLite files and PostgreSQL: a workflow run asks a
 * person and waits durably (`pendingInputs`, the `workflow-interrupt` event), refuses an answer
 * that does not match the input's schema or choices, takes exactly one of two racing answers
 * (given through separate clients, as two machines would), records the timeout outcome when
 * nobody answers, and survives the SIGKILL of the process that waits: another process takes the
 * run over, the answer is given from a third party, and the run finishes once.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InputAlreadyAnsweredError,
  InputNotFoundError,
  InvalidInputAnswerError,
  RunClient,
  RunNotActiveError,
  type WorkflowResult,
} from '../../src/index.js';
import type { RunStore } from '../../src/store/run-store.js';
import { type CrashStoreTarget, postgresCrashTarget, sqliteCrashTarget } from '../crash/crash-store-target.js';
import { openStore } from '../crash/open-store.js';
import { resumeAfterOwner, runScript } from '../helpers/child-process.js';
import { describeWithPostgres, dropSchema, postgresUrlWithSchema, uniqueSchemaName } from '../postgres/postgres-availability.js';
import { inputWorkflow } from './input-workflow-fixture.js';

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'input-node-child.ts');
const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

/** Waits until the run waits for an input, and answers the pending inputs. */
async function waitForInput(client: RunClient, runId: string) {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const pending = await client.pendingInputs(runId).catch(() => []);
    if (pending.length > 0) return pending;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} never waited for input`);
}

function inputSuite(createTarget: () => CrashStoreTarget | Promise<CrashStoreTarget>): void {
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
      runId: `in-${name}-${process.pid}-${caseNumber}`,
      effects: join(target.directory, `in-${name}-${caseNumber}.effects`),
    };
  };
  /** Opens a store as another machine would: its own connection (a second client). */
  const withStores = async <T>(url: string, count: number, work: (stores: RunStore[]) => Promise<T>) => {
    const stores = await Promise.all(Array.from({ length: count }, () => openStore(url)));
    try {
      return await work(stores);
    } finally {
      await Promise.all(stores.map((store) => store.close?.()));
    }
  };

  it('waits, refuses an invalid answer, takes exactly one of two racing answers and finishes with it', async () => {
    const { store: url, runId } = files('race');
    await withStores(url, 3, async ([owner, left, right]) => {
      const recorded: string[] = [];
      const workflow = inputWorkflow(owner as RunStore, { onRecord: (decision) => recorded.push(decision) });
      const run = workflow.run({ sessionId: 'input', runId, input: { request: 'the report' } });
      const events: string[] = [];
      const seen = (async () => {
        for await (const event of run.events()) events.push(event.type);
      })();
      const client = new RunClient({ store: left as RunStore });
      const [pending] = await waitForInput(client, runId);
      expect(pending).toMatchObject({
        interruptId: '0/ask#input',
        node: 'ask',
        question: 'Publish the report?',
        choices: ['yes', 'no'],
        schema: { type: 'string' },
      });
      expect((await client.describeRun(runId)).pendingInputs).toHaveLength(1);
      // The saved question is an event of the run for any follower (the console's SSE).
      const saved = await client.readEvents(runId);
      expect(saved.filter((event) => event.type === 'workflow-interrupt')).toHaveLength(1);

      await expect(client.answerInput(runId, { value: 'maybe' })).rejects.toSatisfy(InvalidInputAnswerError.isInstance);
      await expect(client.answerInput(runId, { value: 42 })).rejects.toSatisfy(InvalidInputAnswerError.isInstance);
      await expect(client.answerInput(runId, { interruptId: '0/other#input', value: 'yes' })).rejects.toSatisfy(
        InputNotFoundError.isInstance,
      );

      const racing = await Promise.allSettled([
        client.answerInput(runId, { value: 'yes', answeredBy: 'alice' }),
        new RunClient({ store: right as RunStore }).answerInput(runId, { value: 'no', answeredBy: 'bob' }),
      ]);
      const accepted = racing.filter((outcome) => outcome.status === 'fulfilled');
      const refused = racing.filter((outcome) => outcome.status === 'rejected');
      expect(accepted).toHaveLength(1);
      expect(refused).toHaveLength(1);
      // The later answer finds the input answered, or, when the run took the first one and
      // finished in between (a busy machine), the run no longer active: refused either way.
      const reason = (refused[0] as PromiseRejectedResult).reason;
      expect(InputAlreadyAnsweredError.isInstance(reason) || RunNotActiveError.isInstance(reason), String(reason)).toBe(true);
      const winner = racing[0]?.status === 'fulfilled' ? 'yes' : 'no';

      const result = await run.result();
      await seen;
      expect(result).toMatchObject({ status: 'succeeded', output: { decision: winner, recorded: `recorded ${winner}` } });
      expect(recorded).toEqual([winner]);
      expect(events).toContain('workflow-interrupt');
      await expect(client.answerInput(runId, { value: 'yes' })).rejects.toSatisfy(RunNotActiveError.isInstance);
      expect(await client.pendingInputs(runId)).toEqual([]);
    });
  }, 60_000);

  it('records the timeout outcome when nobody answers, and refuses a late answer', async () => {
    const { store: url, runId } = files('timeout');
    await withStores(url, 1, async ([store]) => {
      const workflow = inputWorkflow(store as RunStore, { timeoutMs: 400 });
      const result = await workflow.run({ sessionId: 'input', runId, input: { request: 'the memo' } }).result();
      expect(result).toMatchObject({ status: 'succeeded', output: { decision: 'no', recorded: 'recorded no' } });
      const journal = await (store as RunStore).readJournal(runId);
      const answers = journal.filter((entry) => entry.type === 'input-answered');
      expect(answers).toHaveLength(1);
      expect(answers[0]?.data).toMatchObject({ value: 'no', answeredBy: 'timeout', timedOut: true });
      await expect(new RunClient({ store: store as RunStore }).answerInput(runId, { value: 'yes' })).rejects.toSatisfy(
        RunNotActiveError.isInstance,
      );
    });
  }, 60_000);

  it('a stop while the run waits ends it stopped', async () => {
    const { store: url, runId } = files('stop');
    await withStores(url, 1, async ([store]) => {
      const workflow = inputWorkflow(store as RunStore);
      const run = workflow.run({ sessionId: 'input', runId, input: { request: 'x' } });
      const client = new RunClient({ store: store as RunStore });
      await waitForInput(client, runId);
      await client.requestStop(runId);
      expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    });
  }, 60_000);

  it('SIGKILLed while waiting: another process takes over, the answer is taken once, the run finishes once', async () => {
    const crash = files('crash');
    const child = await runScript(childScript, {
      IN_STORE: crash.store,
      IN_RUN_ID: crash.runId,
      IN_EFFECTS: crash.effects,
      IN_REQUEST: 'the launch',
      IN_TIMEOUT_MS: '60000',
    });
    expect(child.frozenAt, `child did not freeze: ${child.stderr}`).toBe('waiting');
    const result = await withStores(crash.store, 2, async ([taker, answerer]) => {
      const client = new RunClient({ store: answerer as RunStore });
      const [pending] = await client.pendingInputs(crash.runId);
      expect(pending).toMatchObject({ question: 'Publish the launch?' });
      const deadline = pending?.deadlineAt as number;
      // Answered while nobody owns the run (the dead owner's lease may still be live): kept in the journal.
      await client.answerInput(crash.runId, { value: 'yes', answeredBy: 'carol' });
      await expect(client.answerInput(crash.runId, { value: 'no' })).rejects.toSatisfy(InputAlreadyAnsweredError.isInstance);
      const workflow = inputWorkflow(taker as RunStore, {
        timeoutMs: 60_000,
        onRecord: (decision) => appendFileSync(crash.effects, `record ${decision}\n`),
      });
      const resumed = await resumeAfterOwner(() => workflow.run({ sessionId: 'input-crash', runId: crash.runId }).result());
      // The deadline was saved with the question: the taker never starts a fresh one.
      const journal = await (taker as RunStore).readJournal(crash.runId);
      // The question's note (the tool node after it notes its own call, X-7).
      const notes = journal.filter((entry) => entry.type === 'task-noted' && (entry.data as { key: string }).key === 'input');
      expect(notes).toHaveLength(1);
      expect((notes[0]?.data as { value?: { deadlineAt: number } } | undefined)?.value?.deadlineAt).toBe(deadline);
      return resumed as WorkflowResult;
    });
    expect(result).toMatchObject({ status: 'succeeded', output: { decision: 'yes', recorded: 'recorded yes' } });
    // The step after the input ran once, in the taker: the killed child never got past the question.
    expect(lines(crash.effects)).toEqual(['record yes']);
  }, 90_000);

  it('SIGKILLed while waiting with a timeout: the taker records the outcome at the saved deadline', async () => {
    const crash = files('crash-timeout');
    const child = await runScript(childScript, {
      IN_STORE: crash.store,
      IN_RUN_ID: crash.runId,
      IN_EFFECTS: crash.effects,
      IN_REQUEST: 'the draft',
      IN_TIMEOUT_MS: '1500',
    });
    expect(child.frozenAt, `child did not freeze: ${child.stderr}`).toBe('waiting');
    await withStores(crash.store, 1, async ([taker]) => {
      const workflow = inputWorkflow(taker as RunStore, {
        timeoutMs: 1500,
        onRecord: (decision) => appendFileSync(crash.effects, `record ${decision}\n`),
      });
      const result = await resumeAfterOwner(() => workflow.run({ sessionId: 'input-crash', runId: crash.runId }).result());
      expect(result).toMatchObject({ status: 'succeeded', output: { decision: 'no' } });
      const journal = await (taker as RunStore).readJournal(crash.runId);
      const note = journal.find((entry) => entry.type === 'task-noted' && (entry.data as { key: string }).key === 'input')
        ?.data as { value: { deadlineAt: number } };
      const answer = journal.find((entry) => entry.type === 'input-answered');
      expect(answer?.data).toMatchObject({ timedOut: true, value: 'no' });
      // Recorded at the deadline saved by the killed owner, not a fresh one counted from the takeover.
      expect(answer?.at).toBeGreaterThanOrEqual(note.value.deadlineAt);
      expect(answer?.at).toBeLessThan(note.value.deadlineAt + 1_500);
    });
    expect(lines(crash.effects)).toEqual(['record no']);
  }, 90_000);
}

describe('input node on SQLite', () => {
  inputSuite(sqliteCrashTarget);
});

await describeWithPostgres('input node on PostgreSQL', () => {
  inputSuite(() => {
    const schema = uniqueSchemaName('input_node');
    return postgresCrashTarget({ schema, storeUrl: postgresUrlWithSchema(schema), dropSchema });
  });
});
