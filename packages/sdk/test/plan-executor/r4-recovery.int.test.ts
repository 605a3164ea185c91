/**
 * The R-4 scenario across real processes: the planner delegated A, B and C; A and C finished and
 * were saved; the process is SIGKILLed while B is in its third loop; a new process resumes the same
 * run id from the same SQLite file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { runScript } from '../helpers/child-process.js';

const child = join(dirname(fileURLToPath(import.meta.url)), 'r4-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-r4-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Files {
  database: string;
  calls: string;
  effects: string;
  runId: string;
}

function files(name: string): Files {
  return {
    database: join(directory, `${name}.db`),
    calls: join(directory, `${name}.calls`),
    effects: join(directory, `${name}.effects`),
    runId: `r4-${name}`,
  };
}

const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

/** Runs the child; with `freeze`, it is SIGKILLed where B starts its third loop. */
async function runChild(target: Files, freeze: boolean): Promise<{ result?: RunResult; killed: boolean; stderr: string }> {
  const run = await runScript(child, {
    R4_DATABASE: target.database,
    R4_CALLS: target.calls,
    R4_EFFECTS: target.effects,
    R4_RUN_ID: target.runId,
    R4_FREEZE: freeze ? '1' : '0',
  });
  return { ...(run.values.RESULT ? { result: run.values.RESULT as RunResult } : {}), killed: run.killed, stderr: run.stderr };
}

describe('Plan–Executor recovery across processes (R-4)', () => {
  it('reuses finished executors, continues B at its third loop and never replans', async () => {
    const baselineFiles = files('baseline');
    const baseline = await runChild(baselineFiles, false);
    expect(baseline.stderr).toBe('');
    expect(baseline.result?.status).toBe('succeeded');

    const crash = files('crash');
    const first = await runChild(crash, true);
    expect(
      first.killed,
      `the child was not killed where B starts its third loop: ${first.stderr}${JSON.stringify(first.result)}`,
    ).toBe(true);
    const callsBefore = lines(crash.calls);
    const effectsBefore = lines(crash.effects);
    const store = new SqliteRunStore({ path: crash.database });
    const journalBefore = await store.readJournal(crash.runId);
    await store.close();
    // At the kill, A and C were finished and saved, and B was in its third loop.
    const finished = journalBefore.filter((entry) => entry.type === 'task-finished').map((entry) => entry.taskId);
    expect(finished.sort()).toEqual(['entry/1/0', 'entry/1/2']);
    expect(callsBefore.at(-1)).toBe('worker-B loop-3 messages-5');

    const second = await runChild(crash, false);
    expect(second.stderr).toBe('');
    const callsAfter = lines(crash.calls).slice(callsBefore.length);
    const effectsAfter = lines(crash.effects).slice(effectsBefore.length);

    // Same outcome and the same loops as the uncrashed run.
    expect(second.result).toMatchObject({ status: 'succeeded', output: baseline.result?.output, loops: baseline.result?.loops });
    expect(second.result?.output).toBe(
      'Report: A finished after A-step-1 | B finished after B-step-1, B-step-2, B-step-3 | C finished after C-step-1',
    );
    // A and C: no further model calls, their tools did not run again.
    expect(callsAfter.filter((call) => call.startsWith('worker-A') || call.startsWith('worker-C'))).toEqual([]);
    expect(effectsAfter.filter((effect) => !effect.startsWith('entry/1/1/'))).toEqual([]);
    // B continued at its third loop with its earlier context: loops 1–2 were not asked again.
    expect(callsAfter.filter((call) => call.startsWith('worker-B'))).toEqual([
      'worker-B loop-3 messages-5',
      'worker-B loop-4 messages-7',
    ]);
    expect(effectsAfter).toEqual(['entry/1/1/3/0 B-3']);
    // The planner was asked once more, with the three results, and never to plan again.
    expect(callsAfter.filter((call) => call.startsWith('planner'))).toEqual(['planner 3']);
    expect(lines(crash.calls).filter((call) => call === 'planner 0')).toHaveLength(1);
  }, 60_000);
});
