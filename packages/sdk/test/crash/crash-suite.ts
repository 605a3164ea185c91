/**
 * The crash-recovery suite, for any durable store: a run is SIGKILLed at many points (after every
 * durable write, inside tools, inside model calls, twice in a row) and resumed by a new process
 * from the same store. Call it inside a `describe` of the store's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Baseline, CrashSuite, inPool, type Scenario } from './crash-checks.js';
import { countByOperation, readEffects, runChild } from './crash-harness.js';
import type { CrashStoreTarget } from './crash-store-target.js';

/** How one store's suite is built. */
export interface CrashRecoverySuiteOptions {
  createTarget: () => Promise<CrashStoreTarget> | CrashStoreTarget;
  /**
   * Chooses the kill points of the secondary sweeps (inside tools and model calls; every write of
   * the serial run). The sweep over every durable write of the parallel, retry-on run always
   * runs in full. Default: all points.
   */
  sample?: (points: readonly string[]) => string[];
}

/** Every third point and the last one: a cheaper sweep that still spans the whole run. */
export function everyThirdPoint(points: readonly string[]): string[] {
  return points.filter((_, index) => index % 3 === 0 || index === points.length - 1);
}

/** Registers the crash-recovery tests of one store. */
export function crashRecoverySuite(options: CrashRecoverySuiteOptions): void {
  const sample = options.sample ?? ((points: readonly string[]) => [...points]);
  let suite: CrashSuite;
  beforeAll(async () => {
    suite = new CrashSuite(await options.createTarget());
  }, 60_000);
  afterAll(async () => suite?.target.dispose());

  describe('SIGKILL, parallel batch, retry on', () => {
    const scenario: Scenario = { parallel: true, retry: true };
    let baseline: Baseline;
    beforeAll(async () => {
      baseline = await suite.runBaseline(scenario);
      expect(baseline.outcome.result?.output).toBe(
        'Finished: note saved: first | value of answer is 42 | a done | b done | c done | charged 5',
      );
    }, 60_000);

    it('kills after every durable write and resumes to the same outcome', async () => {
      expect(baseline.appends).toBeGreaterThanOrEqual(20);
      const points = Array.from({ length: baseline.appends + 1 }, (_, append) => `append:${append}`);
      const logged = suite.crashLog.length;
      await inPool(points, 2, (point) => suite.crashAndResume(scenario, baseline, point));
      const labels = suite.crashLog.slice(logged).map((entry) => entry.points[0] ?? '');
      expect(new Set(labels).size).toBe(points.length);
      // The points cover the moments the issue names.
      expect(labels.some((label) => / model-responded$/.test(label))).toBe(true);
      expect(labels.some((label) => / attempt-started$/.test(label))).toBe(true);
      expect(labels.some((label) => / attempt-failed$/.test(label))).toBe(true);
      expect(labels.some((label) => / operation-finished$/.test(label))).toBe(true);
      expect(labels.some((label) => / run-finished$/.test(label))).toBe(true);
    }, 300_000);

    it('kills inside tools after their side effect, and inside model calls', async () => {
      const points = sample([
        'tool:write_note:1',
        'tool:flaky_lookup:1',
        'tool:flaky_lookup:2',
        'tool:slow_step:1',
        'tool:charge:1',
        'model:1',
        'model:2',
        'model:4',
      ]);
      await inPool(points, 2, (point) => suite.crashAndResume(scenario, baseline, point));
    }, 300_000);

    it('survives a second crash during the recovery of the first', async () => {
      await suite.crashAndResume(scenario, baseline, 'append:6', ['append:6', 'tool:charge:1']);
    }, 60_000);
  });

  describe('SIGKILL, serial batch, retry off', () => {
    const scenario: Scenario = { parallel: false, retry: false };

    it('gives the model an unknown outcome instead of re-running the call', async () => {
      const testCase = suite.newCase('retry-off');
      const child = { store: testCase.storeUrl, runId: testCase.runId, effectsPath: testCase.effectsPath, ...scenario };
      const crashed = await runChild({ ...child, freezeAt: 'tool:write_note:1' });
      expect(crashed.exitSignal).toBe('SIGKILL');
      const resumed = await runChild(child);
      expect(resumed.result?.status).toBe('succeeded');
      expect(resumed.result?.output).toMatch(/^Finished: Error \(unknown-outcome\): the call was started/);
      expect(resumed.result?.output).toContain('| Error (connection): connection reset |');
      expect(countByOperation(readEffects(testCase.effectsPath)).get('entry/1/0')).toBe(1);
    }, 60_000);

    it('kills at every durable write of a serial run and resumes it', async () => {
      const baseline = await suite.runBaseline(scenario);
      const points = sample(Array.from({ length: baseline.appends + 1 }, (_, append) => `append:${append}`));
      await inPool(points, 2, (point) => suite.crashAndResume(scenario, baseline, point));
    }, 300_000);
  });
}
