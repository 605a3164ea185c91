import type { JournalEntry, RunClient, RunStore } from '@agentloom/sdk';
import { expect } from 'vitest';
import type { TestClient } from './harness.js';
import { waitForTerminal } from './run-helpers.js';
import type { SseFollower } from './sse-follower.js';
import { type TrialRun, trialExecution } from './takeover-fixture.js';

/** What `RunClient.describeRun` answers (not exported by name from the SDK root). */
export type RunDescription = Awaited<ReturnType<RunClient['describeRun']>>;

/** One kill of a run's owner: the run as the SDK described it just before the SIGKILL. */
export interface Trial {
  runId: string;
  before: RunDescription;
  /** When the killed process was gone (epoch ms). */
  killedAt?: number;
  /** A workflow run's agent nodes just before the kill, by task id: their inner runs' status and last sequence. */
  agentNodes?: Record<string, { status: string; lastSequence: number }>;
}

/** What the checks of one run found (summed up for the report). */
export interface RunFindings {
  takeovers: number;
  unknownOutcomes: number;
  toolExecutions: number;
  /** Calls of a workflow's tool node that a kill cut before their result was saved, run again by the taker. */
  toolNodeReruns: number;
}

/** The options every run check gets. */
export interface CheckOptions {
  client: TestClient;
  runClient: RunClient;
  store: RunStore;
  run: TrialRun;
  trials: readonly Trial[];
  executions: ReadonlyMap<string, number>;
  /** When each execution of a query reached the ledger. */
  executionTimes: (query: string) => number[];
  follower: SseFollower;
  fullIds: readonly number[];
  fullTypes: readonly string[];
}

const failureKindOf = (entry: JournalEntry) => (entry.data as { failure?: { kind?: string } } | null)?.failure?.kind;
const operationOf = (entry: JournalEntry) => (entry.data as { operationId?: string } | null)?.operationId;

/**
 * 0 redone tool results among an agent run's `lookup` calls: each call that succeeded executed
 * exactly once by the ledger, except that a call with attempts recorded `unknown-outcome` (a kill
 * between the attempt's start and its saved result) may have one more execution per unknown; a
 * call whose every attempt was lost that way failed `unknown-outcome` and ran at most once per
 * attempt. Answers the unknowns, the executions and the queries the run recorded.
 */
export function checkLookups(
  label: string,
  description: RunDescription,
  journal: readonly JournalEntry[],
  executions: ReadonlyMap<string, number>,
  expectedCalls: number,
): { unknownOutcomes: number; toolExecutions: number; queries: string[] } {
  let unknownOutcomes = 0;
  let toolExecutions = 0;
  const operations = description.agent?.operations ?? [];
  for (const operation of operations.filter((item) => item.toolName === 'lookup')) {
    const query = (operation.arguments as { query: string }).query;
    const unknown = journal.filter(
      (entry) => operationOf(entry) === operation.operationId && failureKindOf(entry) === 'unknown-outcome',
    ).length;
    const executed = executions.get(query) ?? 0;
    unknownOutcomes += unknown;
    toolExecutions += executed;
    const what = `${label} ${query} (${operation.status}, ${operation.attempts} attempts, ${unknown} unknown, ${executed} executions, ${operation.failure?.kind ?? 'no failure'})`;
    if (operation.status === 'succeeded') {
      // A finished call ran once; a call with attempts lost to kills may have run once per lost attempt too.
      if (unknown === 0) expect(executed, what).toBe(1);
      else expect(executed >= 1 && executed <= 1 + unknown, what).toBe(true);
    } else {
      // Every attempt was lost to a kill (the retry policy allows 2): failed as unknown, never run more than attempted.
      expect([operation.status, operation.failure?.kind], what).toEqual(['failed', 'unknown-outcome']);
      expect(executed, what).toBeLessThanOrEqual(unknown);
    }
  }
  expect(operations.filter((item) => item.toolName === 'lookup').length, label).toBe(expectedCalls);
  const queries = operations.flatMap((operation) => {
    const query = (operation.arguments as { query?: string }).query;
    return query === undefined ? [] : [query];
  });
  return { unknownOutcomes, toolExecutions, queries };
}

/** The journal is dense (sequences 1…n) and its writers' epochs never go back: never two owners at once. */
export function checkSingleOwner(label: string, journal: readonly JournalEntry[]): void {
  expect(
    journal.map((entry) => entry.sequence),
    label,
  ).toEqual(journal.map((_, index) => index + 1));
  for (let index = 1; index < journal.length; index += 1)
    expect((journal[index] as JournalEntry).epoch, `${label} epoch at ${index + 1}`).toBeGreaterThanOrEqual(
      (journal[index - 1] as JournalEntry).epoch,
    );
}

/** The SSE follower, reconnected with `Last-Event-ID` after every kill, saw exactly the full replay, ending with `terminal`. */
export function checkFollower(label: string, options: CheckOptions, terminal: string): void {
  expect(options.follower.types.at(-1), label).toBe(terminal);
  expect(options.follower.ids, `${label}: SSE across reconnects = full replay`).toEqual(options.fullIds);
  expect(options.follower.types, label).toEqual(options.fullTypes);
}

/**
 * How many owners took the run over: the owners past the first, each known by its epoch — from
 * the journal (the host's `run-requested` has none) and from the kills, since an owner killed
 * before its first write leaves no entry.
 */
export function takeoversOf(journal: readonly JournalEntry[], killedEpochs: readonly number[] = []): number {
  const epochs = new Set(journal.filter((entry) => entry.type !== 'run-requested').map((entry) => entry.epoch));
  for (const epoch of killedEpochs) if (epoch > 0) epochs.add(epoch);
  return epochs.size - 1;
}

/**
 * Every AC-4 check of one finished run (PLATFORM.md AC-4, §4.4), from the API, the SDK store, the
 * tool ledger and the run's SSE follower (an agent run; a workflow run: `checkWorkflowRun`):
 * - it succeeded over HTTP with its own answer and the same run id;
 * - its input was recorded once (one `run-requested`, one `run-started`, both with the input);
 * - never two owners at once: the journal is dense and its writers' epochs never go back, and
 *   each killed owner's epoch was followed by a higher one that finished the run;
 * - budget and deadline unchanged across every takeover (`deadlineAt`, `maxLoops` as before,
 *   loops and usage only grew, loops equal to the `loop-started` entries);
 * - 0 redone tool results (`checkLookups`), no execution outside the recorded calls, and no
 *   delegation redone (one executor task per delegation);
 * - the SSE follower, reconnected with `Last-Event-ID` after every kill, saw exactly the run's
 *   full event replay: no gap, no duplicate, ending with `run-finish`.
 */
export async function checkRun(options: CheckOptions): Promise<RunFindings> {
  const { run, trials, executions } = options;
  const label = `${run.kind} ${run.tag} (${run.runId})`;
  const body = await waitForTerminal(options.client, run.runId);
  expect(`${body.id} ${body.status} ${body.output}`, label).toBe(`${run.runId} succeeded ${run.expectedOutput}`);

  const description = await options.runClient.describeRun(run.runId);
  const journal = await options.store.readJournal(run.runId);
  expect(description.input, label).toBe(run.input);
  const requested = journal.filter((entry) => entry.type === 'run-requested');
  const started = journal.filter((entry) => entry.type === 'run-started');
  expect([requested.length, started.length], label).toEqual([1, 1]);
  const startedData = (started[0] as JournalEntry).data as { input: unknown; deadlineAt: number };
  expect(((requested[0] as JournalEntry).data as { input: unknown }).input, label).toBe(run.input);
  expect(startedData.input, label).toBe(run.input);

  checkSingleOwner(label, journal);
  const finish = journal.find((entry) => entry.type === 'run-finished') as JournalEntry;
  const deadlineAt = startedData.deadlineAt;
  expect(description.agent?.deadlineAt, label).toBe(deadlineAt);
  // Fixed when the run first started (between the API's createRun and the run-started entry), never restarted by a taker.
  expect(deadlineAt, label).toBeGreaterThanOrEqual(description.createdAt + trialExecution.timeoutMs);
  expect(deadlineAt, label).toBeLessThanOrEqual((started[0] as JournalEntry).at + trialExecution.timeoutMs);
  expect(description.agent?.maxLoops, label).toBe(trialExecution.maxLoops);
  expect(description.loops, label).toBe(journal.filter((entry) => entry.type === 'loop-started').length);
  for (const trial of trials) {
    const killedEpoch = trial.before.owner?.epoch ?? 0;
    expect(finish.epoch, `${label}: finished by a later owner than the killed epoch ${killedEpoch}`).toBeGreaterThan(killedEpoch);
    expect(trial.before.agent?.deadlineAt ?? deadlineAt, label).toBe(deadlineAt);
    expect(trial.before.agent?.maxLoops ?? trialExecution.maxLoops, label).toBe(trialExecution.maxLoops);
    expect(description.loops, label).toBeGreaterThanOrEqual(trial.before.loops);
    expect(description.usage.totalTokens ?? 0, label).toBeGreaterThanOrEqual(trial.before.usage.totalTokens ?? 0);
  }

  const lookups = checkLookups(label, description, journal, executions, run.kind === 'react' ? 3 : 4);
  const recorded = new Set(lookups.queries);
  const ledgerQueries = [...executions.keys()].filter((query) => query.startsWith(`[t:${run.tag}] `));
  expect(
    ledgerQueries.filter((query) => !recorded.has(query)),
    `${label}: no execution outside the recorded calls`,
  ).toEqual([]);
  if (run.kind === 'plan-executor') {
    expect(journal.filter((entry) => entry.type === 'task-created').length, label).toBe(2);
    expect(description.agent?.tasks.map((task) => task.role).sort(), label).toEqual(['planner', 'researcher', 'researcher']);
  }

  checkFollower(label, options, 'run-finish');
  const { unknownOutcomes, toolExecutions } = lookups;
  return {
    takeovers: takeoversOf(
      journal,
      trials.map((trial) => trial.before.owner?.epoch ?? 0),
    ),
    unknownOutcomes,
    toolExecutions,
    toolNodeReruns: 0,
  };
}
