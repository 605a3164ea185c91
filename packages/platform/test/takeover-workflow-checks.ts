import { innerRunIdOf, type JournalEntry } from '@agentloom/sdk';
import { expect } from 'vitest';
import { waitForTerminal } from './run-helpers.js';
import {
  type CheckOptions,
  checkFollower,
  checkLookups,
  checkSingleOwner,
  type RunFindings,
  takeoversOf,
} from './takeover-checks.js';
import { trialWorkflowPolicy, trialWorkflowTasks } from './takeover-fixture.js';

const dataOf = <T>(entry: JournalEntry | undefined) => (entry?.data ?? {}) as T;

/**
 * Every AC-4 check of one finished workflow run (PLATFORM.md AC-4; issue 16's R-6 case), from the
 * API, the run view, the SDK store, the tool ledger and the run's SSE follower:
 * - it succeeded over HTTP with the same run id and its output (both agents' answers, the filed result);
 * - its input was recorded once (one `run-requested`, one `workflow-started`, both with the input);
 * - never two owners at once (dense journal, epochs never go back), each killed owner's epoch
 *   followed by a later one that finished it;
 * - budget and deadline unchanged: one `workflow-started` with the policy's loop budget and a
 *   deadline fixed at the first start, each inner agent run
 *   started once with that deadline and its share of the budget, loops and usage only grew;
 * - each agent node bound one inner run (`innerRunIdOf(runId, taskId)`), never a second;
 *   an inner run that had finished when its workflow's owner was killed got no entry more (not
 *   run again), one that had not continued its own journal to its end;
 * - 0 redone tool results: every `lookup` of the inner runs by `checkLookups`; the tool node ran
 *   once, plus at most one run per kill that cut its call before its result was saved, and never
 *   after its result was saved; no ledger execution outside the recorded calls;
 * - the SSE follower saw exactly the full replay, ending with `workflow-finish`.
 */
export async function checkWorkflowRun(options: CheckOptions): Promise<RunFindings> {
  const { run, trials, executions, store, runClient } = options;
  const label = `workflow ${run.tag} (${run.runId})`;
  const body = await waitForTerminal(options.client, run.runId);
  expect(`${body.id} ${body.status}`, label).toBe(`${run.runId} succeeded`);
  const output = body.output as unknown as { notes: string[]; filed: unknown };
  expect(JSON.stringify({ notes: [...output.notes].sort(), filed: output.filed }), label).toBe(run.expectedOutput);

  const description = await runClient.describeRun(run.runId);
  const journal = await store.readJournal(run.runId);
  expect(description.input, label).toEqual(run.input);
  const requested = journal.filter((entry) => entry.type === 'run-requested');
  const started = journal.filter((entry) => entry.type === 'workflow-started');
  expect([requested.length, started.length], label).toEqual([1, 1]);
  expect(dataOf<{ input: unknown }>(requested[0]).input, label).toEqual(run.input);
  const startedData = dataOf<{ input: unknown; deadlineAt: number; maxLoops: number }>(started[0]);
  expect(startedData.input, label).toEqual(run.input);

  checkSingleOwner(label, journal);
  const finish = journal.find((entry) => entry.type === 'workflow-finished') as JournalEntry;
  const deadlineAt = startedData.deadlineAt;
  expect(startedData.maxLoops, label).toBe(trialWorkflowPolicy.maxLoops);
  // One `workflow-started` holds the deadline (a run the host created keeps no deadline on its row):
  // fixed at the first start, between the API's createRun and that entry, never restarted by a taker.
  expect(deadlineAt, label).toBeGreaterThanOrEqual(description.createdAt + trialWorkflowPolicy.timeoutMs);
  expect(deadlineAt, label).toBeLessThanOrEqual((started[0] as JournalEntry).at + trialWorkflowPolicy.timeoutMs);
  for (const trial of trials) {
    const killedEpoch = trial.before.owner?.epoch ?? 0;
    expect(finish.epoch, `${label}: finished by a later owner than the killed epoch ${killedEpoch}`).toBeGreaterThan(killedEpoch);
    expect(description.loops, label).toBeGreaterThanOrEqual(trial.before.loops);
    expect(description.usage.totalTokens ?? 0, label).toBeGreaterThanOrEqual(trial.before.usage.totalTokens ?? 0);
  }

  // one inner run per agent node, bound once; finished ones untouched by later owners, the others continued.
  const invoked = journal.filter((entry) => entry.type === 'agent-invoked');
  const agentNodes = [
    { taskId: trialWorkflowTasks.research, calls: 3 },
    { taskId: trialWorkflowTasks.plan, calls: 4 },
  ];
  expect(invoked.map((entry) => `${entry.taskId} ${dataOf<{ runId: string }>(entry).runId}`).sort(), label).toEqual(
    agentNodes.map(({ taskId }) => `${taskId} ${innerRunIdOf(run.runId, taskId)}`).sort(),
  );
  const { view } = (await options.client.request('GET', `/runs/${run.runId}/view`)).body as {
    view: { workflow: { tasks: { taskId: string; status: string; agentRunId?: string }[] } };
  };
  expect(
    view.workflow.tasks.map((task) => `${task.taskId} ${task.status} ${task.agentRunId ?? '-'}`),
    label,
  ).toEqual([
    `${trialWorkflowTasks.plan} succeeded ${innerRunIdOf(run.runId, trialWorkflowTasks.plan)}`,
    `${trialWorkflowTasks.research} succeeded ${innerRunIdOf(run.runId, trialWorkflowTasks.research)}`,
    `${trialWorkflowTasks.file} succeeded -`,
  ]);
  let unknownOutcomes = 0;
  let toolExecutions = 0;
  const recorded = new Set<string>();
  for (const { taskId, calls } of agentNodes) {
    const innerId = innerRunIdOf(run.runId, taskId);
    const innerLabel = `${label} ${taskId}`;
    const inner = await runClient.describeRun(innerId);
    const innerJournal = await store.readJournal(innerId);
    expect(inner.status, innerLabel).toBe('succeeded');
    expect(innerJournal.filter((entry) => entry.type === 'run-started').length, innerLabel).toBe(1);
    checkSingleOwner(innerLabel, innerJournal);
    expect(inner.agent?.deadlineAt, innerLabel).toBe(deadlineAt);
    // The two parallel agent nodes share the workflow's loop budget (W-6), fixed when each first started.
    expect(inner.agent?.maxLoops, innerLabel).toBe(Math.floor(trialWorkflowPolicy.maxLoops / agentNodes.length));
    for (const trial of trials) {
      const before = trial.agentNodes?.[taskId];
      if (!before) continue;
      if (before.status === 'succeeded')
        expect(innerJournal.length, `${innerLabel}: finished before the kill, not run again`).toBe(before.lastSequence);
      else
        expect(innerJournal.length, `${innerLabel}: continued its own inner run after the kill`).toBeGreaterThan(
          before.lastSequence,
        );
    }
    const lookups = checkLookups(innerLabel, inner, innerJournal, executions, calls);
    for (const query of lookups.queries) recorded.add(query);
    unknownOutcomes += lookups.unknownOutcomes;
    toolExecutions += lookups.toolExecutions;
    if (taskId === trialWorkflowTasks.plan)
      expect(innerJournal.filter((entry) => entry.type === 'task-created').length, innerLabel).toBe(2);
  }

  // The tool node: each attempt is noted open before its call, so a kill during the call is
  // recorded `unknown-outcome` by the taker and run again only as a new attempt its retry
  // policy allows — never silently, and never once its result was saved.
  const filing = (run.input as { filing: string }).filing;
  recorded.add(filing);
  const times = options.executionTimes(filing);
  const saved = journal.find((entry) => entry.type === 'task-finished' && entry.taskId === trialWorkflowTasks.file);
  const what = `${label} tool node (${times.length} executions, ${trials.length} kills)`;
  expect(times.length >= 1 && times.length <= 1 + trials.length, what).toBe(true);
  const unknownAttempts = journal.filter(
    (entry) =>
      entry.type === 'task-attempt-failed' &&
      entry.taskId === trialWorkflowTasks.file &&
      dataOf<{ failure: { failure?: { kind: string } } }>(entry).failure.failure?.kind === 'unknown-outcome',
  );
  // A kill after the note and before the request left records an unknown outcome with no execution.
  expect(times.length - 1, `${what}: every repeated call follows a recorded unknown outcome`).toBeLessThanOrEqual(
    unknownAttempts.length,
  );
  expect(unknownAttempts.length, `${what}: an unknown outcome only after a kill`).toBeLessThanOrEqual(trials.length);
  expect(
    times.filter((at) => at > (saved as JournalEntry).at),
    `${what}: none after its result was saved`,
  ).toEqual([]);
  toolExecutions += times.length;
  const ledgerQueries = [...executions.keys()].filter((query) => query.startsWith(`[t:${run.tag}] `));
  expect(
    ledgerQueries.filter((query) => !recorded.has(query)),
    `${label}: no execution outside the recorded calls`,
  ).toEqual([]);

  checkFollower(label, options, 'workflow-finish');
  return {
    takeovers: takeoversOf(
      journal,
      trials.map((trial) => trial.before.owner?.epoch ?? 0),
    ),
    unknownOutcomes,
    toolExecutions,
    toolNodeReruns: times.length - 1,
  };
}
