/**
 * Crash recovery across real processes (R-1… ): a run is SIGKILLed at many
 * points and resumed by a new process from the same SQLite file; the resumed outcome must equal
 * the uncrashed one, with no redone saved result, one input, one charge per loop and the same
 * deadline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry, RunRecord } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { type ChildOutcome, countByOperation, readEffects, runChild } from './crash-harness.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-crash-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Snapshot {
  run: RunRecord | undefined;
  journal: JournalEntry[];
  effects: string[];
}

async function snapshot(path: string, runId: string, effectsPath: string): Promise<Snapshot> {
  const store = new SqliteRunStore({ path });
  try {
    return { run: await store.getRun(runId), journal: await store.readJournal(runId), effects: readEffects(effectsPath) };
  } finally {
    await store.close();
  }
}

interface Case {
  name: string;
  path: string;
  effectsPath: string;
  runId: string;
}

let caseNumber = 0;
function newCase(label: string): Case {
  caseNumber += 1;
  return {
    name: label,
    path: join(directory, `run-${caseNumber}.db`),
    effectsPath: join(directory, `effects-${caseNumber}.log`),
    runId: `crash-run-${caseNumber}`,
  };
}

interface Scenario {
  parallel: boolean;
  retry: boolean;
}
interface Baseline {
  outcome: ChildOutcome;
  appends: number;
}

async function runBaseline(scenario: Scenario): Promise<Baseline> {
  const testCase = newCase('baseline');
  const outcome = await runChild({
    store: `sqlite:${testCase.path}`,
    runId: testCase.runId,
    effectsPath: testCase.effectsPath,
    ...scenario,
  });
  expect(outcome.stderr).toBe('');
  expect(outcome.result?.status).toBe('succeeded');
  return { outcome, appends: outcome.appends ?? 0 };
}

/** Runs `work` over `items` with at most `limit` at a time (the machine has two cores). */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** Operations whose last attempt was started but neither failed nor finished at the snapshot. */
function openOperations(journal: readonly JournalEntry[]): Map<string, number> {
  const open = new Map<string, number>();
  for (const entry of journal) {
    const data = entry.data as { operationId?: string; attempt?: number };
    if (entry.type === 'attempt-started') open.set(data.operationId as string, data.attempt as number);
    if (entry.type === 'attempt-failed' || entry.type === 'operation-finished') open.delete(data.operationId as string);
  }
  return open;
}

function finishedOperations(journal: readonly JournalEntry[]): Set<string> {
  return new Set(
    journal
      .filter((entry) => entry.type === 'operation-finished')
      .map((entry) => (entry.data as { operationId: string }).operationId),
  );
}

async function crashAndResume(
  scenario: Scenario,
  baseline: Baseline,
  freezeAt: string,
  kills: string[] = [freezeAt],
): Promise<void> {
  const testCase = newCase(freezeAt);
  const child = { store: `sqlite:${testCase.path}`, runId: testCase.runId, effectsPath: testCase.effectsPath, ...scenario };
  let before: Snapshot | undefined;
  let deadlineAt: number | undefined;
  const killedAt: string[] = [];
  for (const point of kills) {
    const crashed = await runChild({ ...child, freezeAt: point });
    expect(crashed.stderr).toBe('');
    expect(crashed.killedAt, `the process must reach ${point}`).toBeDefined();
    expect(crashed.exitSignal).toBe('SIGKILL');
    killedAt.push(crashed.killedAt as string);
    before = await snapshot(testCase.path, testCase.runId, testCase.effectsPath);
    deadlineAt ??= before.run?.deadlineAt;
    if (deadlineAt !== undefined) expect(before.run?.deadlineAt).toBe(deadlineAt);
  }
  const resumed = await runChild(child);
  expect(resumed.stderr).toBe('');
  const after = await snapshot(testCase.path, testCase.runId, testCase.effectsPath);
  const killed = before as Snapshot;

  // The outcome equals the uncrashed run's, except that with retry off a call in flight at the
  // kill reaches the model as an unknown outcome instead of its result.
  const { runId: _a, sessionId: _b, ...expected } = baseline.outcome.result ?? ({} as never);
  if (!scenario.retry && openOperations(killed.journal).size > 0) {
    expect(resumed.result).toMatchObject({ status: 'succeeded', loops: expected.loops, runId: testCase.runId });
    expect(resumed.result?.output).toContain('Error (unknown-outcome)');
  } else {
    expect(resumed.result).toMatchObject({ ...expected, runId: testCase.runId });
  }
  expect(after.run).toMatchObject({ status: 'succeeded', loopsUsed: expected.loops });

  // The input appears once: one run-started record, and once in every model request.
  expect(after.journal.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
  for (const count of resumed.inputCounts ?? []) expect(count).toBe(1);

  // Loops are never charged twice nor reset.
  const loops = after.journal
    .filter((entry) => entry.type === 'loop-started')
    .map((entry) => `${entry.taskId}/${(entry.data as { loop: number }).loop}`);
  expect(new Set(loops).size).toBe(loops.length);
  expect(loops).toHaveLength(expected.loops);

  // The deadline is the one fixed at creation.
  const started = after.journal[0]?.data as { deadlineAt: number };
  expect(after.run?.deadlineAt).toBe(started.deadlineAt);
  if (deadlineAt !== undefined) expect(after.run?.deadlineAt).toBe(deadlineAt);

  // No saved result was redone; every execution after the kill is an attempt started after it.
  const killedCounts = countByOperation(killed.effects);
  const finalCounts = countByOperation(after.effects);
  const laterEntries = after.journal.slice(killed.journal.length);
  for (const operationId of finishedOperations(killed.journal)) {
    expect(finalCounts.get(operationId), `${operationId} was saved before the kill`).toBe(killedCounts.get(operationId));
  }
  for (const [operationId, finalCount] of finalCounts) {
    const startedLater = laterEntries.filter(
      (entry) => entry.type === 'attempt-started' && (entry.data as { operationId: string }).operationId === operationId,
    ).length;
    expect(finalCount, `${operationId} executions`).toBe((killedCounts.get(operationId) ?? 0) + startedLater);
  }

  // A call in flight at the kill is recorded unknown, then treated by the retry policy.
  for (const [operationId, attempt] of openOperations(killed.journal)) {
    if (!scenario.retry) {
      const finished = laterEntries.find(
        (entry) => entry.type === 'operation-finished' && (entry.data as { operationId: string }).operationId === operationId,
      );
      expect(finished?.data).toMatchObject({ status: 'failed', failure: { kind: 'unknown-outcome' }, attempts: attempt });
      continue;
    }
    const unknown = laterEntries.find(
      (entry) =>
        entry.type === 'attempt-failed' &&
        (entry.data as { operationId: string }).operationId === operationId &&
        (entry.data as { failure: { kind: string } }).failure.kind === 'unknown-outcome',
    );
    expect(unknown, `${operationId} must be recorded unknown`).toBeDefined();
    expect(unknown?.data).toMatchObject({ attempt });
    const retried = laterEntries.find(
      (entry) =>
        entry.type === 'attempt-started' &&
        (entry.data as { operationId: string }).operationId === operationId &&
        (entry.data as { attempt: number }).attempt === attempt + 1,
    );
    expect(retried, `${operationId} must be retried after unknown`).toBeDefined();
  }
  crashLog.push({ points: killedAt, resumedOwnedElsewhere: resumed.ownedElsewhere });
  if (process.env.CRASH_DEBUG)
    console.log(
      killedAt.join(' > '),
      'open:',
      [...openOperations(killed.journal).keys()].join(','),
      'owned-elsewhere:',
      resumed.ownedElsewhere,
    );
}

const crashLog: Array<{ points: string[]; resumedOwnedElsewhere: number }> = [];

describe('crash recovery on SQLite (SIGKILL, parallel batch, retry on)', () => {
  const scenario: Scenario = { parallel: true, retry: true };
  let baseline: Baseline;
  beforeAll(async () => {
    baseline = await runBaseline(scenario);
    expect(baseline.outcome.result?.output).toBe(
      'Finished: note saved: first | value of answer is 42 | a done | b done | c done | charged 5',
    );
  }, 60_000);

  it('kills after every durable write and resumes to the same outcome', async () => {
    expect(baseline.appends).toBeGreaterThanOrEqual(20);
    const points = Array.from({ length: baseline.appends + 1 }, (_, append) => `append:${append}`);
    await inPool(points, 2, (point) => crashAndResume(scenario, baseline, point));
    const labels = crashLog.map((entry) => entry.points[0] ?? '');
    expect(new Set(labels).size).toBe(points.length);
    // The points cover the moments the issue names.
    expect(labels.some((label) => / model-responded$/.test(label))).toBe(true);
    expect(labels.some((label) => / attempt-started$/.test(label))).toBe(true);
    expect(labels.some((label) => / attempt-failed$/.test(label))).toBe(true);
    expect(labels.some((label) => / operation-finished$/.test(label))).toBe(true);
    expect(labels.some((label) => / run-finished$/.test(label))).toBe(true);
  }, 300_000);

  it('kills inside tools after their side effect, and inside model calls', async () => {
    const points = [
      'tool:write_note:1',
      'tool:flaky_lookup:1',
      'tool:flaky_lookup:2',
      'tool:slow_step:1',
      'tool:charge:1',
      'model:1',
      'model:2',
      'model:4',
    ];
    await inPool(points, 2, (point) => crashAndResume(scenario, baseline, point));
  }, 300_000);

  it('survives a second crash during the recovery of the first', async () => {
    await crashAndResume(scenario, baseline, 'append:6', ['append:6', 'tool:charge:1']);
  }, 60_000);
});

describe('crash recovery on SQLite (SIGKILL, serial batch, retry off)', () => {
  const scenario: Scenario = { parallel: false, retry: false };

  it('gives the model an unknown outcome instead of re-running the call', async () => {
    const testCase = newCase('retry-off');
    const child = { store: `sqlite:${testCase.path}`, runId: testCase.runId, effectsPath: testCase.effectsPath, ...scenario };
    const crashed = await runChild({ ...child, freezeAt: 'tool:write_note:1' });
    expect(crashed.exitSignal).toBe('SIGKILL');
    const resumed = await runChild(child);
    expect(resumed.result?.status).toBe('succeeded');
    expect(resumed.result?.output).toMatch(/^Finished: Error \(unknown-outcome\): the call was started/);
    expect(resumed.result?.output).toContain('| Error (connection): connection reset |');
    expect(countByOperation(readEffects(testCase.effectsPath)).get('entry/1/0')).toBe(1);
  }, 60_000);

  it('kills at every durable write of a serial run and resumes it', async () => {
    const baseline = await runBaseline(scenario);
    const points = Array.from({ length: baseline.appends + 1 }, (_, append) => `append:${append}`);
    await inPool(points, 2, (point) => crashAndResume(scenario, baseline, point));
  }, 300_000);
});
