import { InvalidRunRequestError, StoreFailureError, UnsupportedJournalFormatError } from '../../../core/errors/index.js';
import { addUsage, emptyUsage, type Usage } from '../../../core/messages.js';
import type { JournalEntry } from '../../../store/run-store.js';
import { LOOP_LIMIT_CHANNEL } from '../channels/channel-names.js';
import type { Channel } from '../channels/channels.js';
import type { CompiledGraph } from '../graph/compile-graph.js';
import type { AgentInvocationReference } from '../nodes/workflow-node.js';
import { restoreTeamTurnTexts } from '../team-events.js';
import type { WorkflowInterrupt } from './interrupt.js';
import { applySuperstepWrites, planAfterInput, planSuperstep, taskMap } from './plan.js';
import {
  type ChannelWrite,
  type Durability,
  type LoopLimitHit,
  type RunLineage,
  WORKFLOW_JOURNAL_FORMAT,
  type WorkflowEnding,
  type WorkflowStartedRecord,
  workflowJournal,
} from './workflow-journal.js';

/** One task of a superstep: a node triggered by its channels (pull) or by a send (push). */
export interface PlannedTask {
  /** `<step>/<node>` or `<step>/<node>/<send index>`: the same whenever this superstep is planned. */
  id: string;
  node: string;
  kind: 'pull' | 'push';
  /** The node's trigger channels (for a pull task). */
  triggers: readonly string[];
  payload?: unknown;
}

/** The state of a workflow run: what the fold of its journal rebuilds, and what the live run advances. */
export interface WorkflowRunState {
  workflow: string;
  fingerprint: string;
  input: unknown;
  durability: Durability;
  maxSteps: number;
  maxLoops: number | undefined;
  deadlineAt: number;
  channels: Map<string, Channel>;
  versions: Map<string, number>;
  maxVersion: number;
  /** For each node, the version of each trigger channel it last ran on. */
  versionsSeen: Map<string, Map<string, number>>;
  /** One-superstep channels currently holding a value. */
  liveEphemeral: Set<string>;
  /** The state fields' values; replaced (never mutated) when a superstep changes one. */
  values: Record<string, unknown>;
  step: number;
  /** The current superstep's tasks by id, in planned order. */
  tasks: Map<string, PlannedTask>;
  /** Writes of the current superstep's finished tasks. */
  finished: Map<string, readonly ChannelWrite[]>;
  /** Unanswered interrupts of the current superstep's paused tasks. */
  interrupted: Map<string, WorkflowInterrupt>;
  resumeValues: Map<string, unknown>;
  agentRuns: Map<string, AgentInvocationReference>;
  /** The call notes of the current superstep's tasks (`task-noted`), by task id then key. */
  notes: Map<string, Record<string, unknown>>;
  /** Failed attempts of the current superstep's tasks: the last attempt number and when the next may start. */
  attempts: Map<string, { attempt: number; retryAt: number }>;
  /** The run this one continues (`continueFrom` / `rerunFrom`). */
  continues: RunLineage | undefined;
  /** Loops that ended by their limit, in the order their decisions were saved. */
  loopLimits: LoopLimitHit[];
  /** Two tasks of the current superstep wrote one single-value field: the superstep cannot be applied. */
  conflict: { field: string; taskIds: string[] } | undefined;
  loopsUsed: number;
  usage: Usage;
  ending?: WorkflowEnding;
}

/** Rebuilds a workflow run from its whole journal (the live run applies the same entries). */
export function foldWorkflowJournal(graph: CompiledGraph, runId: string, entries: readonly JournalEntry[]): WorkflowRunState {
  // `workflow-started` is first, or follows the host's `run-requested` (and what reached the
  // pending run: a stop request); the other entries are applied in journal order.
  const startIndex = entries.findIndex((entry) => entry.type === 'workflow-started');
  const started = entries[startIndex];
  const first = started && workflowJournal.recordOf(started);
  if (first?.type !== 'workflow-started') throw new UnsupportedJournalFormatError(runId, undefined);
  if (first.data.formatVersion !== WORKFLOW_JOURNAL_FORMAT)
    throw new UnsupportedJournalFormatError(runId, first.data.formatVersion);
  if (first.data.workflow !== graph.definition.name || first.data.fingerprint !== graph.fingerprint) {
    throw new InvalidRunRequestError(
      runId,
      `Run ${runId} was created by workflow "${first.data.workflow}" with graph ${first.data.fingerprint}; resume it with that same graph (B-5), not "${graph.definition.name}" ${graph.fingerprint}.`,
    );
  }
  const state = createWorkflowRunState(graph, first.data);
  entries.forEach((entry, index) => {
    if (index !== startIndex) applyWorkflowEntry(graph, state, entry);
  });
  return state;
}

function createWorkflowRunState(graph: CompiledGraph, data: WorkflowStartedRecord['data']): WorkflowRunState {
  const channels = graph.createChannels();
  const values: Record<string, unknown> = {};
  for (const name of graph.fieldNames) values[name] = channels.get(name)?.get();
  const state: WorkflowRunState = {
    workflow: data.workflow,
    fingerprint: data.fingerprint,
    input: data.input,
    durability: data.durability,
    maxSteps: data.maxSteps,
    maxLoops: data.maxLoops ?? undefined,
    deadlineAt: data.deadlineAt,
    channels,
    versions: new Map(),
    maxVersion: 0,
    versionsSeen: new Map(),
    liveEphemeral: new Set(),
    values,
    step: -1,
    tasks: new Map(),
    finished: new Map(),
    interrupted: new Map(),
    resumeValues: new Map(),
    agentRuns: new Map(),
    attempts: new Map(),
    notes: new Map(),
    continues: data.continues,
    loopLimits: [],
    conflict: undefined,
    loopsUsed: 0,
    usage: emptyUsage(),
  };
  planAfterInput(graph, state, data.writes);
  return state;
}

/**
 * Applies one journal entry. When the last task of a superstep is recorded, the superstep's
 * writes are applied in planned order and the next superstep is planned — so a crash at any
 * point leaves a journal from which the fold finds exactly the pending work.
 */
export function applyWorkflowEntry(graph: CompiledGraph, state: WorkflowRunState, entry: JournalEntry): void {
  const record = workflowJournal.recordOf(entry);
  switch (record.type) {
    case 'task-finished': {
      expectTask(state, record.taskId, record.data.step);
      // A team's saved writes get back the turn texts the journal leaves out (ADR 0047).
      const writes = restoreTeamTurnTexts(record.data.writes) as typeof record.data.writes;
      state.finished.set(record.taskId, writes);
      for (const [channel, value] of writes) {
        if (channel === LOOP_LIMIT_CHANNEL)
          state.loopLimits.push({ ...(value as { loop: string; iterations: number }), step: record.data.step });
      }
      if (!record.data.reused) {
        state.loopsUsed += record.data.loops ?? 0;
        if (record.data.usage) addUsage(state.usage, record.data.usage);
      }
      if (state.finished.size === state.tasks.size) advance(graph, state);
      return;
    }
    case 'task-interrupted': {
      const task = expectTask(state, record.taskId, record.data.step);
      state.interrupted.set(record.taskId, { ...record.data.interrupt, taskId: task.id, node: task.node });
      return;
    }
    case 'task-noted':
      expectTask(state, record.taskId, record.data.step);
      state.notes.set(record.taskId, { ...state.notes.get(record.taskId), [record.data.key]: record.data.value });
      return;
    case 'task-attempt-failed':
      expectTask(state, record.taskId, record.data.step);
      state.attempts.set(record.taskId, { attempt: record.data.attempt, retryAt: record.data.retryAt });
      return;
    case 'task-failed':
      expectTask(state, record.taskId, record.data.step);
      state.loopsUsed += record.data.loops ?? 0;
      return;
    case 'agent-invoked':
      expectTask(state, record.taskId, record.data.step);
      state.agentRuns.set(record.taskId, {
        runId: record.data.runId,
        sessionId: record.data.sessionId,
        // A budget copied into a continuation (`reused`) was the earlier run's share, not this one's.
        ...(record.data.loopBudget !== undefined && !record.data.reused ? { loopBudget: record.data.loopBudget } : {}),
      });
      return;
    case 'resume-accepted':
      for (const [id, value] of Object.entries(record.data.values)) {
        state.resumeValues.set(id, value);
        for (const [taskId, pending] of state.interrupted) if (pending.id === id) state.interrupted.delete(taskId);
      }
      return;
    case 'input-answered':
      // The first answer to an input is its answer (issue 36); later ones are never used.
      if (!state.resumeValues.has(record.data.interruptId)) state.resumeValues.set(record.data.interruptId, record.data.value);
      return;
    case 'workflow-finished':
      state.ending = record.data;
      return;
    case 'workflow-started':
      // Folded first, into the state it creates.
      return;
    case 'run-requested':
    case 'stop-requested':
      // A host's request: the owner starts the run from it, or stops it (`executeWorkflowRun`).
      return;
  }
}

function expectTask(state: WorkflowRunState, taskId: string, step: number): PlannedTask {
  const task = state.step === step ? state.tasks.get(taskId) : undefined;
  if (!task) {
    throw new StoreFailureError(
      `Corrupt workflow journal: task ${taskId} of superstep ${step} is not planned (superstep ${state.step}); resume the run with the graph that created it (B-5).`,
    );
  }
  return task;
}

function advance(graph: CompiledGraph, state: WorkflowRunState): void {
  state.conflict = conflictOf(graph, state);
  if (state.conflict) return;
  const updated = applySuperstepWrites(graph, state, [...state.tasks.values()], (task) => state.finished.get(task.id) ?? []);
  state.step += 1;
  state.finished.clear();
  state.interrupted.clear();
  state.attempts.clear();
  state.notes.clear();
  state.tasks = taskMap(planSuperstep(graph, state, updated));
}

/**
 * The first single-value field that more than one task of the finished superstep wrote, when the
 * field refuses conflicts (`onConflict: 'error'`, the default of `lastValue`): which write should
 * win would depend on declaration order, so the superstep is not applied and the run fails.
 */
function conflictOf(graph: CompiledGraph, state: WorkflowRunState): WorkflowRunState['conflict'] {
  // A task alone never conflicts (its writes of one field are one write).
  if (state.tasks.size < 2) return undefined;
  const writers = new Map<string, string[]>();
  for (const task of state.tasks.values()) {
    for (const [channel] of state.finished.get(task.id) ?? []) {
      const field = graph.definition.state[channel];
      if (field?.kind !== 'last-value' || field.onConflict === 'last-write-wins') continue;
      const ids = writers.get(channel) ?? [];
      if (!ids.includes(task.id)) ids.push(task.id);
      writers.set(channel, ids);
    }
  }
  for (const [field, taskIds] of writers) if (taskIds.length > 1) return { field, taskIds };
  return undefined;
}
