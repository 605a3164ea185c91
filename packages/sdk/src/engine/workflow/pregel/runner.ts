import { abortableSleep } from '../../../core/abortable-sleep.js';
import { OwnershipLostError, StaleEpochError, StoreFailureError } from '../../../core/errors/index.js';
import { RunInterrupt } from '../../run/run-control.js';
import { LOOP_LIMIT_CHANNEL, SENDS_CHANNEL } from '../channels/channel-names.js';
import { InvalidStateUpdateError, LoopLimitReachedError, UndeclaredRouteError } from '../errors/workflow-errors.js';
import type { NodeSpec } from '../graph/graph-definition.js';
import { decideTaskRetry, type NodeRetryPolicy } from '../nodes/node-retry.js';
import { NodeFailure, type WorkflowTaskFailure } from '../nodes/workflow-node.js';
import { compactTeamTurnTexts, TEAM_EVENTS_FIELD, type TeamEventPayload, teamEventsOf } from '../team-events.js';
import type { WorkflowEvent } from '../workflow-events.js';
import { ArtifactAdmission } from './artifact-admission.js';
import { InterruptSignal } from './interrupt.js';
import { type InvocationContext, RecordingFailure, TaskInvocation } from './task-invocation.js';
import { writesOfTask } from './task-writes.js';
import type { ChannelWrite, WorkflowJournalRecord } from './workflow-journal.js';
import type { PlannedTask } from './workflow-state.js';

/** What the loop and the runner of one workflow execution share: what a task's invocation reads, and more. */
export interface EngineContext extends InvocationContext {
  maxConcurrency: number;
  /** The state fields a successful run returns (all when empty). */
  outputFields: readonly string[];
  /** The workflow's retry policy for capability and function nodes without one of their own. */
  defaultRetry: NodeRetryPolicy | undefined;
}

/** How a superstep's run ended: every task settled; failed tasks in planned order. */
export interface StepOutcome {
  failures: { task: PlannedTask; failure: WorkflowTaskFailure; loops: number }[];
  budgetExhausted?: boolean;
}

type TaskOutcome = { kind: 'done' } | { kind: 'failed'; failure: WorkflowTaskFailure; loops: number } | { kind: 'skipped' };

/**
 * Runs the tasks of one superstep that have no saved outcome (LangGraph's runner, written here):
 * concurrently up to `maxConcurrency`, each recorded the moment it finishes so that a crash
 * never loses a finished branch, while siblings keep running. A business failure does not cancel
 * the siblings; control flow (stop, deadline, lost ownership) closes admission of tasks not yet
 * started, lets started ones settle, and is rethrown once all have.
 */
export async function runSuperstep(context: EngineContext, tasks: readonly PlannedTask[]): Promise<StepOutcome> {
  const budgets = loopBudgets(context, tasks);
  if (budgets === 'exhausted') return { failures: [], budgetExhausted: true };
  // One task (a sequential workflow's step, a team's turn): nothing to admit or run beside it.
  if (tasks.length === 1) {
    const task = tasks[0] as PlannedTask;
    if (context.control.signal.aborted) return { failures: [] };
    const outcome = await runTask(context, task, budgets.get(task.id));
    return outcome.kind === 'failed'
      ? { failures: [{ task, failure: outcome.failure, loops: outcome.loops }] }
      : { failures: [] };
  }
  const outcomes = new Map<string, TaskOutcome>();
  const errors: unknown[] = [];
  const admission = new ArtifactAdmission(tasks, (task) => context.graph.nodeByName.get(task.node)?.artifacts);
  const worker = async () => {
    for (let task = await admission.next(); task; task = await admission.next()) {
      try {
        if (context.control.signal.aborted) outcomes.set(task.id, { kind: 'skipped' });
        else outcomes.set(task.id, await runTask(context, task, budgets.get(task.id)));
      } catch (error) {
        errors.push(error);
      } finally {
        admission.finished(task);
      }
    }
  };
  const workers = Math.max(1, Math.min(context.maxConcurrency, tasks.length));
  await Promise.all(Array.from({ length: workers }, worker));
  const control =
    errors.find((error) => OwnershipLostError.isInstance(error)) ??
    errors.find((error) => RunInterrupt.isInstance(error)) ??
    errors[0];
  if (errors.length > 0) throw control;
  const failures: StepOutcome['failures'] = [];
  for (const task of tasks) {
    const outcome = outcomes.get(task.id);
    if (outcome?.kind === 'failed') failures.push({ task, failure: outcome.failure, loops: outcome.loops });
  }
  return { failures };
}

async function runTask(context: EngineContext, task: PlannedTask, loopBudget: number | undefined): Promise<TaskOutcome> {
  const { graph, state, recorder, emit, runId } = context;
  const spec = graph.nodeByName.get(task.node);
  if (!spec) throw new InvalidStateUpdateError(`task ${task.id}`, task.node, 'the graph has no such node');
  const step = state.step;
  const policy = retryPolicyOf(context, spec);
  const saved = state.attempts.get(task.id);
  let attempt = (saved?.attempt ?? 0) + 1;
  // A crash during a retry wait resumes the same wait and attempt count, never a fresh budget.
  if (saved && saved.retryAt > context.now()) await abortableSleep(saved.retryAt - context.now(), context.control.signal);
  emit({ type: 'task-start', runId, step, taskId: task.id, node: task.node });
  for (;;) {
    const invocation = new TaskInvocation(context, task, step, attempt, loopBudget);
    let writes: ReturnType<typeof writesOfTask>;
    let execution: Awaited<ReturnType<typeof spec.node.execute>>;
    try {
      execution = await spec.node.execute(invocation);
      const options: Parameters<typeof writesOfTask>[4] = { source: task.kind === 'push' ? { payload: task.payload } : {} };
      if (execution.goto) options.goto = execution.goto;
      if (execution.checked) options.checked = true;
      writes = writesOfTask(graph, state, task.node, execution.update, options);
    } catch (error) {
      if (InterruptSignal.isInstance(error)) {
        const { id, value } = error.interrupt;
        await recorder.record([{ type: 'task-interrupted', taskId: task.id, data: { step, interrupt: { id, value } } }]);
        emit({ type: 'task-finish', runId, step, taskId: task.id, node: task.node, status: 'interrupted' });
        return { kind: 'done' };
      }
      if (RunInterrupt.isInstance(error) || OwnershipLostError.isInstance(error)) throw error;
      if (context.hardSignal.aborted && RunInterrupt.isInstance(context.hardSignal.reason)) throw context.hardSignal.reason;
      if (error instanceof RecordingFailure) throw error.cause;
      if (isStoreError(error)) throw error;
      const failure = failureOf(task, error);
      const decision = decideTaskRetry(policy, failure, attempt, context.now(), state.deadlineAt);
      if (decision.retry) {
        const retryAt = context.now() + decision.waitMs;
        // Saved before the wait: a crash now resumes at the next attempt, at the same time.
        await recorder.record([{ type: 'task-attempt-failed', taskId: task.id, data: { step, attempt, failure, retryAt } }]);
        emit({ type: 'task-retry', runId, step, taskId: task.id, node: task.node, attempt, failure, waitMs: decision.waitMs });
        await abortableSleep(decision.waitMs, context.control.signal);
        attempt += 1;
        continue;
      }
      emit({ type: 'task-finish', runId, step, taskId: task.id, node: task.node, status: 'failed', failure });
      return { kind: 'failed', failure, loops: NodeFailure.isInstance(error) ? error.loops : 0 };
    }
    // Saving is not the node's business: a store failure here fails the run, never the node.
    // Saved without the team-turn texts its transcript writes carry (ADR 0047); applied and announced whole.
    const data: { step: number; writes: typeof writes; loops?: number; usage?: NonNullable<typeof execution.usage> } = {
      step,
      writes: compactTeamTurnTexts(writes) as typeof writes,
    };
    if (execution.loops) data.loops = execution.loops;
    if (execution.usage) data.usage = execution.usage;
    const finished = writes;
    // What the task's saved record announces, once it is durable.
    const announce = () => {
      for (const [channel, value] of finished) {
        if (channel !== LOOP_LIMIT_CHANNEL) continue;
        const hit = value as { loop: string; iterations: number };
        emit({ type: 'loop-limit', runId, step, taskId: task.id, loop: hit.loop, iterations: hit.iterations });
      }
      emit({ type: 'task-finish', runId, step, taskId: task.id, node: task.node, status: 'succeeded' });
      // A team's events are part of its task's saved writes (N-12): emitted after the task's finish.
      for (const payload of teamEventsOf(finished, graph.definition.state[TEAM_EVENTS_FIELD]))
        emit(teamEventOf(payload, runId, step, task));
    };
    const entries: WorkflowJournalRecord[] = [{ type: 'task-finished', taskId: task.id, data }];
    if (endsWithTask(context, writes)) {
      // The run's last task: saved with the run's ending, in one commit (see `Recorder.recordLast`).
      await recorder.recordLast(entries, execution.loops ?? 0, () => state.tasks.size === 0, announce);
    } else {
      await recorder.record(entries, execution.loops ?? 0);
      announce();
    }
    return { kind: 'done' };
  }
}

/**
 * Whether the run ends once this task's writes are applied (in `sync` mode, where that lets its
 * record be written with the ending): it is its superstep's only task, the graph has no join to
 * release, the run is not being interrupted, and it writes no channel that triggers a node and
 * sends nothing — so the next superstep plans no task. A guess on the safe side: the recorder
 * checks the applied state and writes the record at once if work is planned after all.
 */
function endsWithTask(context: EngineContext, writes: readonly ChannelWrite[]): boolean {
  const { graph, state } = context;
  if (state.durability !== 'sync' || state.tasks.size !== 1 || graph.joins.size > 0 || context.control.interrupt) return false;
  for (const [channel] of writes) if (channel === SENDS_CHANNEL || graph.nodesOf.has(channel)) return false;
  return true;
}

/**
 * A team event as emitted: its payload's fields, then the task's identity — what
 * `{ ...payload, runId, step, taskId, node }` gives, copied key by key: that spread site sees a
 * payload of each event type (megamorphic) and allocated about five times the event's size
 * (issue 31: a fifth of a handoff turn's allocations). Payloads are plain objects (a topology's
 * literals, or parsed from the journal), so their enumerable keys are their own.
 */
function teamEventOf(payload: TeamEventPayload, runId: string, step: number, task: PlannedTask): WorkflowEvent {
  const event: Record<string, unknown> = {};
  for (const key in payload) event[key] = (payload as Record<string, unknown>)[key];
  event.runId = runId;
  event.step = step;
  event.taskId = task.id;
  event.node = task.node;
  return event as unknown as WorkflowEvent;
}

/** The retry policy of a task's node: its own, else the workflow's; never for an agent node (W-6). */
function retryPolicyOf(context: EngineContext, spec: NodeSpec): NodeRetryPolicy | undefined {
  if (spec.node.kind === 'agent') return undefined;
  return spec.retry ?? context.defaultRetry;
}

/** Errors of the run's own machinery (its store), which fail the run rather than one node. */
function isStoreError(error: unknown): boolean {
  return StoreFailureError.isInstance(error) || StaleEpochError.isInstance(error);
}

function failureOf(task: PlannedTask, error: unknown): WorkflowTaskFailure {
  const base = { node: task.node, taskId: task.id };
  if (NodeFailure.isInstance(error)) return { ...base, ...error.detail };
  if (UndeclaredRouteError.isInstance(error)) return { ...base, kind: 'undeclared-route', message: error.message };
  if (InvalidStateUpdateError.isInstance(error)) return { ...base, kind: 'invalid-state-update', message: error.message };
  if (LoopLimitReachedError.isInstance(error)) return { ...base, kind: 'loop-limit-reached', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { ...base, kind: 'node-error', message };
}

/** The loop budgets of a run without a loop limit: none (one map for every superstep). */
const NO_BUDGETS: ReadonlyMap<string, number> = new Map();

/**
 * The loop budget of each agent task that starts a new inner run (W-6): the root run's remaining
 * loops, shared evenly by the superstep's new agent invocations, so that parallel agents together
 * never exceed it. The share is recorded with each invocation, and a takeover never changes it:
 * an agent task reattaching to a recorded inner run gets its recorded share (an inner run that
 * already started keeps its own limit anyway), and a task of the superstep not invoked yet gets
 * the share its siblings were given, not a new one from what they have spent since.
 */
function loopBudgets(context: EngineContext, tasks: readonly PlannedTask[]): ReadonlyMap<string, number> | 'exhausted' {
  const { state, graph } = context;
  if (state.maxLoops === undefined) return NO_BUDGETS;
  const budgets = new Map<string, number>();
  const isAgent = (task: PlannedTask) => graph.nodeByName.get(task.node)?.node.kind === 'agent';
  for (const task of tasks) {
    const recorded = state.agentRuns.get(task.id)?.loopBudget;
    if (isAgent(task) && recorded !== undefined) budgets.set(task.id, recorded);
  }
  const fresh = tasks.filter((task) => isAgent(task) && !state.agentRuns.has(task.id));
  if (fresh.length === 0) return budgets;
  // Every planned task of this superstep, finished ones included: the share recorded by any of them.
  const given = [...state.tasks.keys()].map((id) => state.agentRuns.get(id)?.loopBudget).find((budget) => budget !== undefined);
  const share = given ?? Math.floor((state.maxLoops - state.loopsUsed) / fresh.length);
  if (share < 1) return 'exhausted';
  for (const task of fresh) budgets.set(task.id, share);
  return budgets;
}
