import { holdAbortListener, subscribeToAbort } from '../../core/abort-subscription.js';
import { InvalidRunRequestError, StoreFailureError, UnsupportedJournalFormatError } from '../../core/errors/index.js';
import { emptyUsage } from '../../core/messages.js';
import type { JournalEntry, RunMetadata, RunRecord, RunStore } from '../../store/run-store.js';
import { executeDurableRun, type OpenedRun } from '../run/execute-durable-run.js';
import { type RunControl, RunInterrupt } from '../run/run-control.js';
import type { RunReporter } from '../run/run-handle.js';
import { findRunRequest, hasStopRequest } from '../run/run-requests.js';
import { START } from './channels/channel-names.js';
import type { CompiledGraph } from './graph/compile-graph.js';
import type { NodeRetryPolicy } from './nodes/node-retry.js';
import { type Continuation, type ContinuationRequest, continuationOf } from './pregel/continuation.js';
import { driveWorkflow, resultOfEnding } from './pregel/loop.js';
import { createRecorder } from './pregel/recorder.js';
import type { EngineContext } from './pregel/runner.js';
import { writesOfTask } from './pregel/task-writes.js';
import {
  type ChannelWrite,
  type Durability,
  type RunLineage,
  WORKFLOW_JOURNAL_FORMAT,
  type WorkflowJournalRecord,
  type WorkflowStartedRecord,
  workflowJournal,
} from './pregel/workflow-journal.js';
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
  /** The run id was made for this request (`createRunId`): no stored run has it (not looked up first). */
  fresh?: boolean;
}

/** A workflow run as its owner opened it: the answers its resume request gives. */
interface OpenedWorkflowRun extends OpenedRun<WorkflowRunState> {
  run: RunRecord;
  outcome: 'created' | 'acquired';
  answers: Record<string, unknown> | undefined;
}

/**
 * Executes one `workflow.run` call by the run's stored state through the durable-run life
 * both engines share (`executeDurableRun`): creates the run with its input (validated first),
 * takes over an unfinished run whose owner is gone and folds its journal, answers
 * `owned-elsewhere` while a live owner holds it, or returns the stored outcome of an ended run
 * without running anything. An `interrupted` result leaves the run unfinished: its lease is
 * released for whoever resumes it.
 */
export function executeWorkflowRun(
  runtime: WorkflowRuntime,
  request: WorkflowRunRequest,
  control: RunControl,
  reporter: RunReporter<WorkflowEvent>,
): Promise<WorkflowResult> {
  const { store, graph } = runtime;
  const { emit } = reporter;
  const started = (
    input: unknown,
    inputWritesOfRun: ChannelWrite[],
    deadline: number,
    lineage: { continues?: RunLineage } = {},
  ): WorkflowStartedRecord => ({
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
  return executeDurableRun<WorkflowRunState, WorkflowJournalRecord, OpenedWorkflowRun, WorkflowResult>({
    store,
    kind: 'workflow',
    runId: request.runId,
    sessionId: request.sessionId,
    ...(request.fresh ? { fresh: true } : {}),
    leaseMs: runtime.leaseMs,
    control,
    onAcquired: reporter.acquired,
    ownerId: reporter.ownerId,
    creation: async (existing) => {
      let continuation: Continuation | undefined;
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
      const deadlineAt = Date.now() + runtime.timeoutMs;
      return {
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
      };
    },
    answerEnded: async (run, call) => {
      const ended = await call(() => store.readJournal(run.runId));
      const result = endedResult(runtime, request, run, ended);
      emit({ type: 'workflow-finish', runId: run.runId, result });
      return result;
    },
    open: async (run, outcome, call, created) => {
      // A run created by this call's `acquire` holds exactly its initial entries: not read back.
      let journal = created ?? (await call(() => store.readJournal(run.runId)));
      // A run a host created (`createRun`) starts here, from its recorded input.
      if (!workflowJournal.find(journal, 'workflow-started')) {
        const requested = findRunRequest(journal);
        if (!requested) throw new UnsupportedJournalFormatError(run.runId, undefined);
        const input = requested.input as Record<string, unknown>;
        if (request.input !== undefined && JSON.stringify(request.input) !== JSON.stringify(input)) {
          throw new InvalidRunRequestError(
            run.runId,
            `Run ${run.runId} was requested with another input; it is never replaced (R-3).`,
          );
        }
        const entry = started(input, inputWrites(graph, input), Date.now() + runtime.timeoutMs);
        await store.append({ runId: run.runId, epoch: run.epoch, entries: [entry] });
        journal = await store.readJournal(run.runId);
      }
      const state = foldWorkflowJournal(graph, run.runId, journal);
      if (request.input !== undefined && JSON.stringify(request.input) !== JSON.stringify(state.input)) {
        throw new InvalidRunRequestError(
          run.runId,
          `Run ${run.runId} was started with another input; it is never replaced (R-3).`,
        );
      }
      checkLineage(run.runId, state, request);
      const apply = (target: WorkflowRunState, entry: JournalEntry) => applyWorkflowEntry(graph, target, entry);
      return {
        state,
        lastSequence: journal.at(-1)?.sequence ?? run.lastSequence,
        deadlineAt: state.deadlineAt,
        stopRequested: hasStopRequest(journal),
        // In `sync` mode the state changes only by applying committed entries; the other modes apply
        // each entry when it is recorded, before it is durable (N-10), with the same reducer.
        apply: state.durability === 'sync' ? apply : () => {},
        // A stop requested from any process reaches the owner at its next renewal at the latest (S-5).
        onCommitted: (entry) => {
          const record = workflowJournal.recordOf(entry);
          // An input's answer, from anyone (issue 36): applied in every durability mode, first wins.
          if (record.type === 'input-answered' && state.durability !== 'sync') applyWorkflowEntry(graph, state, entry);
          if (record.type !== 'stop-requested') return;
          control.stop();
          emit({
            type: 'stop-request',
            runId: run.runId,
            requestedBy: record.data.requestedBy,
            ...(record.data.reason !== undefined ? { reason: record.data.reason } : {}),
          });
        },
        run,
        outcome,
        answers: resumeAnswers(run.runId, state, request),
      };
    },
    drive: async (durable, { run, outcome, state, answers }) => {
      const stopSignal = lazyStopSignal(control);
      const context: EngineContext = {
        graph,
        state,
        runId: run.runId,
        sessionId: run.sessionId,
        control,
        hardSignal: control.hardSignal,
        get stopSignal() {
          return stopSignal();
        },
        recorder: createRecorder(state.durability, durable, (entry) => applyWorkflowEntry(graph, state, entry)),
        emit,
        now: Date.now,
        maxConcurrency: runtime.maxConcurrency,
        outputFields: runtime.outputFields,
        defaultRetry: runtime.retry,
        syncJournal: () => durable.sync(),
        recordAnswer: async (taskId, answer) => {
          // Written only on the journal as this owner has read it: a person's answer that landed
          // first is applied instead, and stays the answer (exactly one is taken).
          const entry: WorkflowJournalRecord = { type: 'input-answered', taskId, data: answer };
          while (!state.resumeValues.has(answer.interruptId)) {
            await durable.commitIfCurrent((current) =>
              current.resumeValues.has(answer.interruptId) ? undefined : { entries: [entry] },
            );
          }
        },
      };
      emit({
        type: 'workflow-start',
        runId: run.runId,
        sessionId: run.sessionId,
        resumed: outcome === 'acquired',
        epoch: run.epoch,
        ...(state.continues ? { continues: state.continues } : {}),
      });
      if (answers) await context.recorder.record([{ type: 'resume-accepted', data: { values: answers } }]);
      // Every model and tool call of the run's tasks waits on the hard signal, one after another:
      // its listener stays for the run rather than being added and removed per call (issue 31).
      const release = holdAbortListener(control.hardSignal);
      try {
        return await driveWorkflow(context);
      } finally {
        release();
      }
    },
    // A paused run (`interrupted`) is not over: its lease goes to whoever resumes it.
    ends: (result) => result.status !== 'interrupted',
  });
}

/** The stored outcome of an ended run, checked against the request's lineage. */
function endedResult(
  runtime: WorkflowRuntime,
  request: WorkflowRunRequest,
  run: RunRecord,
  journal: JournalEntry[],
): WorkflowResult {
  if (!workflowJournal.find(journal, 'workflow-started')) {
    // Stopped by a host while pending: it never started (S-5).
    return {
      runId: run.runId,
      sessionId: run.sessionId,
      status: 'stopped',
      reason: 'user-stop',
      steps: 0,
      loops: 0,
      usage: emptyUsage(),
    };
  }
  const state = foldWorkflowJournal(runtime.graph, run.runId, journal);
  checkLineage(run.runId, state, request);
  if (!state.ending) throw new StoreFailureError(`Run ${run.runId} ended without a workflow ending; it is not a workflow run.`);
  return resultOfEnding(run.runId, run.sessionId, state, state.ending, runtime.outputFields);
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
function lazyStopSignal(control: RunControl): () => AbortSignal {
  // Made when a task first reads it (an agent node): a run of other nodes never pays for the
  // controller and its listener. Every task of a superstep (a fan-out of thousands) waits on these
  // signals at once: through `subscribeToAbort`, which keeps one listener per signal however many
  // wait, and calls at once if the run was already stopped. This one lives as long as the control,
  // which the run owns.
  let stop: AbortController | undefined;
  return () => {
    if (stop) return stop.signal;
    const created = new AbortController();
    stop = created;
    subscribeToAbort(control.signal, (reason) => {
      if (RunInterrupt.isInstance(reason) && reason.reason === 'user-stop') created.abort(reason);
    });
    return created.signal;
  };
}
