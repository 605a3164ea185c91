/**
 * Teams survive a crash mid-conversation (N-12, R-1…R-4), on SQLite and PostgreSQL: a handoff
 * chain, a group chat, an orchestrator that stalls and re-plans, and a task board with mail are SIGKILLed after every
 * durable write of their run and resumed by a new process from the same store. After the
 * takeover no model request is made twice (no turn, speaker choice, handoff or ledger redone),
 * every task is saved once, no board task is claimed twice, and the final transcript, board, owner, ledger and termination equal those
 * of the uninterrupted run.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamEventsOf } from '../../src/engine/workflow/team-events.js';
import type { JournalEntry } from '../../src/store/run-store.js';
import { runScript } from '../helpers/child-process.js';
import { describeWithPostgres, dropSchema, postgresUrlWithSchema, uniqueSchemaName } from '../postgres/postgres-availability.js';
import { inPool } from './crash-checks.js';
import { type CrashStoreTarget, postgresCrashTarget, sqliteCrashTarget } from './crash-store-target.js';
import { readRequestLog, type TeamScenario } from './team-crash-scenario.js';

const child = join(import.meta.dirname, 'team-crash-child.ts');

interface TeamRunResult {
  status: string;
  steps: number;
  output: Record<string, unknown>;
}

function teamCrashSuite(
  createTarget: () => Promise<CrashStoreTarget> | CrashStoreTarget,
  scenarios: readonly TeamScenario[],
): void {
  let target: CrashStoreTarget;
  let cases = 0;
  beforeAll(async () => {
    target = await createTarget();
  }, 60_000);
  afterAll(async () => target?.dispose());

  const newCase = (label: string) => {
    cases += 1;
    return {
      storeUrl: target.storeUrl(cases),
      runId: `team-${label}-${cases}-${Math.random().toString(36).slice(2, 8)}`,
      logPath: join(target.directory, `requests-${cases}.log`),
    };
  };
  const run = (scenario: TeamScenario, testCase: ReturnType<typeof newCase>, freezeAt = '') =>
    runScript(child, {
      CRASH_STORE: testCase.storeUrl,
      CRASH_RUN_ID: testCase.runId,
      CRASH_EFFECTS: testCase.logPath,
      CRASH_FREEZE_AT: freezeAt,
      TEAM_SCENARIO: scenario,
    });

  for (const scenario of scenarios) {
    describe(scenario, () => {
      let baseline: { result: TeamRunResult; appends: number; requests: string[] };
      beforeAll(async () => {
        const testCase = newCase(`${scenario}-baseline`);
        const outcome = await run(scenario, testCase);
        expect(outcome.stderr).toBe('');
        baseline = {
          result: outcome.values.RESULT as TeamRunResult,
          appends: outcome.values.APPENDS as number,
          requests: readRequestLog(testCase.logPath),
        };
        expect(baseline.result.status).toBe('succeeded');
      }, 60_000);

      it('is SIGKILLed after every durable write and resumed by another process with nothing redone', async () => {
        // At least one durable write per member turn besides the run's start (the handoff chain's
        // three turns are one write each: an owner's choice is saved with its turn, and the last
        // turn with the run's ending, in one commit).
        expect(baseline.appends).toBeGreaterThanOrEqual(3);
        expect(new Set(baseline.requests).size).toBe(baseline.requests.length);
        const points = Array.from({ length: baseline.appends + 1 }, (_, append) => `append:${append}`);
        const killedAt: string[] = [];
        await inPool(points, 2, async (point) => {
          const testCase = newCase(scenario);
          const crashed = await run(scenario, testCase, point);
          expect(crashed.killed, `${point}: ${crashed.stderr}`).toBe(true);
          killedAt.push(crashed.frozenAt as string);
          const resumed = await run(scenario, testCase);
          const result = resumed.values.RESULT as TeamRunResult | undefined;
          expect(result?.status, `${point}: ${resumed.stderr}`).toBe('succeeded');
          // The same conversation, owner, ledger and ending as the run that never crashed.
          expect(result?.output, point).toEqual(baseline.result.output);
          expect(result?.steps, point).toBe(baseline.result.steps);
          // No model request twice: no turn, choice, handoff or ledger update was redone.
          const requests = readRequestLog(testCase.logPath);
          expect(requests.length, `${point}: ${requests.join(', ')}`).toBe(new Set(requests).size);
          expect([...requests].sort(), point).toEqual([...baseline.requests].sort());
          // Every task saved once, and one ending.
          const journal = await target.read(testCase.storeUrl, (store) => store.readJournal(testCase.runId));
          const finished = journal.filter((entry: JournalEntry) => entry.type === 'task-finished').map((entry) => entry.taskId);
          expect(finished.length, point).toBe(new Set(finished).size);
          expect(
            journal.filter((entry: JournalEntry) => entry.type === 'workflow-finished'),
            point,
          ).toHaveLength(1);
          // No task claimed twice, no mail sent twice, no vote cast twice.
          const events = journal.flatMap((entry: JournalEntry) =>
            entry.type === 'task-finished' ? teamEventsOf((entry.data as { writes: [string, unknown][] }).writes) : [],
          );
          // Each turn's event once, read back whole: its text is saved only in the transcript (ADR 0047).
          const transcript = (result?.output.transcript ?? []) as { turn: number; speaker: string; text: string }[];
          const turns = events.flatMap((event) => (event.type === 'team-turn' ? [event] : []));
          expect(turns.length, point).toBeGreaterThan(0);
          expect(turns.length, point).toBe(new Set(turns.map((event) => event.turn)).size);
          for (const event of turns)
            expect(transcript, point).toContainEqual(
              expect.objectContaining({ turn: event.turn, speaker: event.speaker, text: event.text }),
            );
          const claims = events.flatMap((event) => (event.type === 'task-claimed' ? [event.task] : []));
          expect(claims.length, point).toBe(new Set(claims).size);
          expect(claims.length, point).toBe(scenario === 'task-board' ? 4 : 0);
          expect(events.filter((event) => event.type === 'mail-sent').length, point).toBe(scenario === 'task-board' ? 1 : 0);
        });
        expect(killedAt).toHaveLength(points.length);
        expect(killedAt.some((label) => label.endsWith('task-finished'))).toBe(true);
        expect(killedAt.some((label) => label.endsWith('workflow-finished'))).toBe(true);
      }, 600_000);
    });
  }
}

describe('team crash recovery on SQLite', () => {
  teamCrashSuite(sqliteCrashTarget, ['handoff', 'group-chat', 'orchestrator', 'task-board']);
});

await describeWithPostgres('team crash recovery on PostgreSQL', () => {
  teamCrashSuite(() => {
    const schema = uniqueSchemaName('teamcrash');
    return postgresCrashTarget({ schema, storeUrl: postgresUrlWithSchema(schema), dropSchema });
  }, ['handoff', 'group-chat', 'orchestrator', 'task-board']);
});
