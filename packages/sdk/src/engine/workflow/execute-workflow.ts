import { subscribeToAbort } from '../../core/abort-subscription.js';
import {
  InvalidRunRequestError,
  RunOwnedElsewhereError,
  StoreFailureError,
  UnsupportedJournalFormatError,
} from '../../core/errors/index.js';
import { createOwnerId } from '../../core/ids.js';
import { emptyUsage } from '../../core/messages.js';
import type { JournalEntry, NewJournalEntry, RunMetadata, RunStore } from '../../store/run-store.js';
import { DurableRun } from '../run/durable-run.js';
import { type RunControl, RunInterrupt } from '../run/run-control.js';
import { findRunRequest, hasStopRequest, type StopRequestedRecord } from '../run/run-requests.js';
import { START } from './channels/channel-names.js';
import type { CompiledGraph } from './graph/compile-graph.js';
import type { NodeRetryPolicy } from './nodes/node-retry.js';
import { type Continuation, type ContinuationRequest, continuationOf } from './pregel/continuation.js';
import { driveWorkflow, resultOfEnding } from './pregel/loop.js';
import { createRecorder } from './pregel/recorder.js';
import type { EngineContext } from './pregel/runner.js';
import { writesOfTask } from './pregel/task-writes.js';
import { type ChannelWrite, type Durability, WORKFLOW_JOURNAL_FORMAT } from './pregel/workflow-journal.js';
import { applyWorkflowEntry, foldWorkflowJournal, type WorkflowRunState } from './pregel/workflow-state.js';
import type { WorkflowEvent, WorkflowResult } from './workflow-events.js';

/** A compiled workflow with its run policy: what every run of it executes with. */
export interface WorkflowRuntime {
  graph: CompiledGraph;
  store: RunStore;
  durability: Durability;
  maxSteps: number;
  timeoutMs: number;
  maxLoops: number | undefined;
  maxConcurrency: number;
  leaseMs: number;
  outputFields: readonly string[];
  /** Retry policy of capability and function nodes that have none of their own. */
  retry: NodeRetryPolicy | undefined;
}

/** Identity, input and resume answers of one `workflow.run` call. */
export interface WorkflowRunRequest {
  runId: string;
  sessionId: string;
  input?: Record<string, unknown>;
  /** Host labels stored on a run created now. */
  metadata?: RunMetadata;
  resume?: { value: unknown };
  resumeById?: Record<string, unknown>;
  /** For a new run that continues an ended one (`continueFrom`, `rerunFrom`). */
  continues?: ContinuationRequest;
}

/**
 * Executes one `workflow.run` call by the run's stored state, exactly as the agent engine
 * does: creates the run with its input (validated first), takes over an unfinished run whose
 * owner is gone and folds its journal, answers `owned-elsewhere` while a live owner holds it, or
 * returns the stored outcome of an ended run without running anything.
 */
export async function executeWorkflowRun(
  runtime: WorkflowRuntime,
  request: WorkflowRunRequest,
  control: RunControl,
  emit: (event: WorkflowEvent) => void,
): Promise<WorkflowResult> {
  const { store, graph } = runtime;
  let continuation: Continuation | undefined;
  const existing = await store.getRun(request.runId);
  if (request.continues) {
    if (request.continues.runId === request.runId) {
      throw new InvalidRunRequestError(request.runId, 'A run cannot continue itself; a continuation is a new run (NOT-6).');
    }
    if (!existing) continuation = await continuationOf(store, graph, request.continues);
  }
  const writes = request.input !== undefined ? inputWrites(graph, request.input) : continuation?.writes;
  if (!writes && !existing) {
    throw new InvalidRunRequestError(request.runId, `Run ${request.runId} does not exist; a new run needs an input.`);
  }
  if (existing && existing.kind !== 'workflow') {
    throw new InvalidRunRequestError(
      request.runId,
      `Run ${request.runId} is an ${existing.kind} run; a workflow cannot execute it.`,
    );
  }
  const deadlineAt = Date.now() + runtime.timeoutMs;
  const started = (
    input: unknown,
    inputWritesOfRun: ChannelWrite[],
    deadline: number,
    lineage: Record<string, unknown> = {},
  ): NewJournalEntry => ({
    type: 'workflow-started',
    data: {
      formatVersion: WORKFLOW_JOURNAL_FORMAT,
      workflow: graph.definition.name,
      fingerprint: graph.fingerprint,
      input: input ?? null,
      writes: inputWritesOfRun,
      durability: runtime.durability,
      maxSteps: runtime.maxSteps,
      maxLoops: runtime.maxLoops ?? null,
      deadlineAt: deadline,
      ...lineage,
    },
  });
  const acquired = await store.acquire({
    runId: request.runId,
    sessionId: request.sessionId,
    ownerId: createOwnerId(),
    leaseMs: runtime.leaseMs,
    deadlineAt,
    initialEntries: [
      started(
        continuation ? continuation.input : request.input,
        writes ?? [],
        deadlineAt,
        continuation ? { continues: continuation.lineage } : {},
      ),
      ...(continuation?.entries ?? []),
    ],
    labels: { kind: 'workflow', name: graph.definition.name, metadata: request.metadata ?? {} },
  });
  const { run } = acquired;
  if (acquired.outcome === 'terminal') {
    const ended = await store.readJournal(run.runId);
    if (!ended.some((entry) => entry.type === 'workflow-started')) {
      // Stopped by a host while pending: it never started (S-5).
      const result: WorkflowResult = {
        runId: run.runId,
        sessionId: run.sessionId,
        status: 'stopped',
        reason: 'user-stop',
        steps: 0,
        loops: 0,
        usage: emptyUsage(),
      };
      emit({ type: 'workflow-finish', runId: run.runId, result });
      return result;
    }
    const state = foldWorkflowJournal(graph, run.runId, ended);
    checkLineage(run.runId, state, request);
    if (!state.ending) throw new StoreFailureError(`Run ${run.runId} ended without a workflow ending; it is not a workflow run.`);
    const result = resultOfEnding(run.runId, run.sessionId, state, state.ending, runtime.outputFields);
    emit({ type: 'workflow-finish', runId: run.runId, result });
    return result;
  }
  if (acquired.outcome === 'owned-elsewhere')
    throw new RunOwnedElsewhereError(run.runId, run.ownerId ?? 'unknown', run.leaseExpiresAt);
  let state: WorkflowRunState;
  let answers: Record<string, unknown> | undefined;
  let stopRequested = false;
  let journal: JournalEntry[] = [];
  try {
    journal = await store.readJournal(run.runId);
    // A run a host created (`createRun`) starts here, from its recorded input.
    if (!journal.some((entry) => entry.type === 'workflow-started')) {
      const requested = findRunRequest(journal);
      if (!requested) throw new UnsupportedJournalFormatError(run.runId, undefined);
      const input = requested.input as Record<string, unknown>;
      if (request.input !== undefined && JSON.stringify(request.input) !== JSON.stringify(input)) {
        throw new InvalidRunRequestError(
          run.runId,
          `Run ${run.runId} was requested with another input; it is never replaced (R-3).`,
        );
      }
      const startedAt = Date.now();
      await store.append({
        runId: run.runId,
        epoch: run.epoch,
        entries: [started(input, inputWrites(graph, input), startedAt + runtime.timeoutMs)],
      });
      journal = await store.readJournal(run.runId);
    }
    stopRequested = hasStopRequest(journal);
    state = foldWorkflowJournal(graph, run.runId, journal);
    if (request.input !== undefined && JSON.stringify(request.input) !== JSON.stringify(state.input)) {
      throw new InvalidRunRequestError(run.runId, `Run ${run.runId} was started with another input; it is never replaced (R-3).`);
    }
    checkLineage(run.runId, state, request);
    answers = resumeAnswers(run.runId, state, request);
  } catch (error) {
    await store.releaseLease(run.runId, run.epoch).catch(() => {});
    throw error;
  }
  const apply = (target: WorkflowRunState, entry: JournalEntry) => applyWorkflowEntry(graph, target, entry);
  const durable = new DurableRun<WorkflowRunState>({
    store,
    runId: run.runId,
    epoch: run.epoch,
    leaseMs: runtime.leaseMs,
    lastSequence: journal.at(-1)?.sequence ?? run.lastSequence,
    state,
    control,
    // A stop requested from any process reaches the owner at its next renewal at the latest (S-5).
    onCommitted: (entry) => {
      if (entry.type !== 'stop-requested') return;
      control.stop();
      const request = entry.data as StopRequestedRecord['data'];
      emit({
        type: 'stop-request',
        runId: run.runId,
        requestedBy: request.requestedBy,
        ...(request.reason !== undefined ? { reason: request.reason } : {}),
      });
    },
    // In `sync` mode the state changes only by applying committed entries; the other modes apply
    // each entry when it is recorded, before it is durable (N-10), with the same reducer.
    apply: state.durability === 'sync' ? apply : () => {},
  });
  const context: EngineContext = {
    graph,
    state,
    runId: run.runId,
    sessionId: run.sessionId,
    control,
    ...derivedSignals(control),
    recorder: createRecorder(state.durability, durable, (entry) => apply(state, entry)),
    emit,
    now: Date.now,
    maxConcurrency: runtime.maxConcurrency,
    outputFields: runtime.outputFields,
    defaultRetry: runtime.retry,
  };
  control.armDeadline(state.deadlineAt);
  // A stop requested before this owner took the run is honoured at once (S-5).
  if (stopRequested) control.stop();
  durable.startLeaseRenewal();
  emit({
    type: 'workflow-start',
    runId: run.runId,
    sessionId: run.sessionId,
    resumed: acquired.outcome === 'acquired',
    epoch: run.epoch,
    ...(state.continues ? { continues: state.continues } : {}),
  });
  let ended = false;
  try {
    if (answers) await context.recorder.record([{ type: 'resume-accepted', data: { values: answers } }]);
    const result = await driveWorkflow(context);
    ended = result.status !== 'interrupted';
    return result;
  } finally {
    control.dispose();
    await durable.dispose({ release: !ended });
  }
}

/** A continuation request made again with an existing run id must name the run's own lineage. */
function checkLineage(runId: string, state: WorkflowRunState, request: WorkflowRunRequest): void {
  const wanted = request.continues;
  if (!wanted) return;
  const actual = state.continues;
  const same =
    actual !== undefined &&
    actual.runId === wanted.runId &&
    actual.from === wanted.from &&
    (wanted.from === 'failure' ||
      (actual.from === 'node' && actual.node === wanted.node && (wanted.step === undefined || wanted.step === actual.step)));
  if (!same) {
    throw new InvalidRunRequestError(
      runId,
      `Run ${runId} exists and does not continue run ${wanted.runId} that way; a run's lineage is never replaced.`,
    );
  }
}

/** The writes of a new run's input: the fields it sets and START's transitions (superstep -1). */
function inputWrites(graph: CompiledGraph, input: Record<string, unknown>): ChannelWrite[] {
  const channels = graph.createChannels();
  const values: Record<string, unknown> = {};
  for (const name of graph.fieldNames) values[name] = channels.get(name)?.get();
  return writesOfTask(graph, { values, channels }, START, input);
}

/** The answers a resume request gives to the run's pending interrupts, checked against them. */
function resumeAnswers(runId: string, state: WorkflowRunState, request: WorkflowRunRequest): Record<string, unknown> | undefined {
  if (!request.resume && !request.resumeById) return undefined;
  const pending = [...state.interrupted.values()];
  if (pending.length === 0) throw new InvalidRunRequestError(runId, `Run ${runId} has no pending interrupt to resume.`);
  if (request.resumeById) {
    const unknown = Object.keys(request.resumeById).filter((id) => !pending.some((interrupt) => interrupt.id === id));
    if (unknown.length > 0) {
      throw new InvalidRunRequestError(runId, `Run ${runId} has no pending interrupt ${unknown.join(', ')}.`);
    }
    return { ...request.resumeById };
  }
  if (pending.length > 1) {
    throw new InvalidRunRequestError(
      runId,
      `Run ${runId} has ${pending.length} pending interrupts (${pending.map((interrupt) => interrupt.id).join(', ')}); answer them with resumeById.`,
    );
  }
  return { [(pending[0] as { id: string }).id]: request.resume?.value };
}

/**
 * The run's signals as the tasks use them, each listened to by many tasks at once:
 * - `hardSignal` (the control's own) aborts when calls in flight must be cut — the deadline or a
 *   lost ownership — but not on a user stop, after which they settle and keep their results (S-5);
 * - `stopSignal` aborts on a user stop only: it is what reaches inner agent runs (W-6), which
 *   meet the deadline by themselves and must not end when this process merely lost ownership.
 */
function derivedSignals(control: RunControl): { hardSignal: AbortSignal; stopSignal: AbortSignal } {
  const stop = new AbortController();
  // Every task of a superstep (a fan-out of thousands) waits on these signals at once: through
  // `subscribeToAbort`, which keeps one listener per signal however many wait. This one lives as
  // long as the control, which the run owns.
  subscribeToAbort(control.signal, (reason) => {
    if (RunInterrupt.isInstance(reason) && reason.reason === 'user-stop') stop.abort(reason);
  });
  return { hardSignal: control.hardSignal, stopSignal: stop.signal };
}
