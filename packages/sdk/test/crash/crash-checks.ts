/**
 * The checks of the crash tests, for any durable store: run the scenario uncrashed (the baseline),
 * or SIGKILL it at chosen points and resume it in a new process, then compare the resumed run
 * with the baseline: same outcome, no redone saved result, one input, one charge per loop, the
 * same deadline, and a call in flight at the kill recorded unknown (R-1… ).
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { JournalEntry, RunRecord } from '../../src/store/run-store.js';
import { type ChildOutcome, countByOperation, readEffects, runChild } from './crash-harness.js';
import type { CrashStoreTarget } from './crash-store-target.js';

/** The switches of one crash scenario. */
export interface Scenario {
  parallel: boolean;
  retry: boolean;
}

/** The uncrashed run a crashed one is compared with. */
export interface Baseline {
  outcome: ChildOutcome;
  appends: number;
}

/** One run of a suite: its store, side-effect log and run id. */
export interface CrashCase {
  name: string;
  storeUrl: string;
  effectsPath: string;
  runId: string;
}

interface Snapshot {
  run: RunRecord | undefined;
  journal: JournalEntry[];
  effects: string[];
}

/** Runs `work` over `items` with at most `limit` at a time (the machine has two cores). */
export async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
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

/** The crash cases of one suite on one store. */
export class CrashSuite {
  readonly target: CrashStoreTarget;
  /** The kill points every `crashAndResume` reached, for the coverage checks. */
  readonly crashLog: Array<{ points: string[]; resumedOwnedElsewhere: number }> = [];
  private caseNumber = 0;

  constructor(target: CrashStoreTarget) {
    this.target = target;
  }

  /** A fresh case: its own run id and side-effect log (and SQLite file). */
  newCase(label: string): CrashCase {
    this.caseNumber += 1;
    return {
      name: label,
      storeUrl: this.target.storeUrl(this.caseNumber),
      effectsPath: join(this.target.directory, `effects-${this.caseNumber}.log`),
      runId: `crash-run-${this.caseNumber}`,
    };
  }

  /** Runs the scenario once without a crash. */
  async runBaseline(scenario: Scenario): Promise<Baseline> {
    const testCase = this.newCase('baseline');
    const outcome = await runChild({
      store: testCase.storeUrl,
      runId: testCase.runId,
      effectsPath: testCase.effectsPath,
      ...scenario,
    });
    expect(outcome.stderr).toBe('');
    expect(outcome.result?.status).toBe('succeeded');
    return { outcome, appends: outcome.appends ?? 0 };
  }

  /** Kills a run at each of `kills` in turn (a new process each time), resumes it and checks it. */
  async crashAndResume(scenario: Scenario, baseline: Baseline, freezeAt: string, kills: string[] = [freezeAt]): Promise<void> {
    const testCase = this.newCase(freezeAt);
    const child = { store: testCase.storeUrl, runId: testCase.runId, effectsPath: testCase.effectsPath, ...scenario };
    let before: Snapshot | undefined;
    let deadlineAt: number | undefined;
    const killedAt: string[] = [];
    for (const point of kills) {
      const crashed = await runChild({ ...child, freezeAt: point });
      expect(crashed.stderr).toBe('');
      expect(crashed.killedAt, `the process must reach ${point}`).toBeDefined();
      expect(crashed.exitSignal).toBe('SIGKILL');
      killedAt.push(crashed.killedAt as string);
      before = await this.snapshot(testCase);
      deadlineAt ??= before.run?.deadlineAt;
      if (deadlineAt !== undefined) expect(before.run?.deadlineAt).toBe(deadlineAt);
    }
    const resumed = await runChild(child);
    expect(resumed.stderr).toBe('');
    const after = await this.snapshot(testCase);
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
    this.crashLog.push({ points: killedAt, resumedOwnedElsewhere: resumed.ownedElsewhere });
    if (process.env.CRASH_DEBUG)
      console.log(
        this.target.name,
        killedAt.join(' > '),
        'open:',
        [...openOperations(killed.journal).keys()].join(','),
        'owned-elsewhere:',
        resumed.ownedElsewhere,
      );
  }

  private snapshot(testCase: CrashCase): Promise<Snapshot> {
    return this.target.read(testCase.storeUrl, async (store) => ({
      run: await store.getRun(testCase.runId),
      journal: await store.readJournal(testCase.runId),
      effects: readEffects(testCase.effectsPath),
    }));
  }
}
