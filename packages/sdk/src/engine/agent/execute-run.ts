import { InvalidRunRequestError, UnsupportedJournalFormatError } from '../../core/errors/index.js';
import type { RunResult } from '../../core/run-result.js';
import type { JournalEntry, RunRecord } from '../../store/run-store.js';
import type { DurableRun } from '../run/durable-run.js';
import { executeDurableRun, type OpenedRun } from '../run/execute-durable-run.js';
import type { RunControl } from '../run/run-control.js';
import type { RunReporter } from '../run/run-handle.js';
import { findRunRequest } from '../run/run-requests.js';
import { type AgentJournalRecord, agentJournal } from './agent-journal.js';
import { type AgentRunState, applyAgentEntry, foldAgentJournal, hasAgentRunStarted } from './agent-state.js';
import { driveToResult } from './drive-run.js';
import { recordLostAttempts } from './operation-runner.js';
import type { RunContext } from './run-context.js';
import { eventOfEntry, type RunEvent } from './run-events.js';
import { assertSameRun } from './run-identity.js';
import type { RunnableAgent, RunRequest } from './runnable-agent.js';
import { type HistoryParts, resolveHistory, type SelectedHistory } from './session/index.js';
import { createRunStartedEntry, type RunStart } from './start-run.js';

export type { RunLimits, RunnableAgent, RunRequest } from './runnable-agent.js';

/** An agent run as its owner opened it: the journal it folded and the history it resolved. */
interface OpenedAgentRun extends OpenedRun<AgentRunState> {
  run: RunRecord;
  outcome: 'created' | 'acquired';
  journal: JournalEntry[];
  parts: HistoryParts | undefined;
}

/**
 * Executes one `run` call by the run's stored state through the durable-run life both
 * engines share (`executeDurableRun`): creates a new run, takes over an unfinished one whose owner
 * is gone, answers `owned-elsewhere` while a live owner holds it, or returns the stored result of a
 * finished one without calling the model. Re-entering never appends the input again nor resets
 * the budget or deadline.
 */
export function executeAgentRun(
  agent: RunnableAgent,
  request: RunRequest,
  control: RunControl,
  reporter: RunReporter<RunEvent>,
): Promise<RunResult> {
  const { emit } = reporter;
  const { store } = agent;
  const now = Date.now;
  const agentIdentity = { name: agent.name, mode: agent.mode, roles: agent.roles };
  // The history and carried supplements are selected only for a run that does not exist yet; a
  // race with another creator is settled by `acquire` (only one `created`).
  let started: RunStart | undefined;
  return executeDurableRun<AgentRunState, AgentJournalRecord, OpenedAgentRun, RunResult>({
    store,
    kind: 'agent',
    runId: request.runId,
    sessionId: request.sessionId,
    leaseMs: agent.leaseMs,
    control,
    onAcquired: reporter.acquired,
    ownerId: reporter.ownerId,
    // No input: it can only resume a run that exists (a host created it, or its owner died).
    resumes: request.input === undefined && request.regenerate === undefined,
    creation: async (existing, call) => {
      if (!existing && request.input === undefined && request.regenerate === undefined) {
        throw new InvalidRunRequestError(request.runId, `Run ${request.runId} does not exist; a new run needs an input.`);
      }
      started = existing ? undefined : await call(() => createRunStartedEntry(agent, request, now()));
      return {
        deadlineAt: started?.record.data.deadlineAt ?? 0,
        initialEntries: started ? [started.record] : [],
        labels: { kind: 'agent', name: agent.name, metadata: request.metadata ?? {} },
      };
    },
    answerEnded: async (run, call) => {
      // A finished run's answer goes only to its own agent and question.
      const [first] = await call(() => store.readJournal(run.runId, { limit: 1 }));
      const start = first?.type === 'run-requested' ? await call(() => startOf(store, run.runId)) : first;
      assertSameRun(run.runId, start, agentIdentity, request.input);
      const result = run.result as RunResult;
      emit({ type: 'run-finish', runId: run.runId, result, sequence: run.lastSequence });
      return result;
    },
    open: async (run, outcome, call, known) => {
      let journal = known ?? (await call(() => store.readJournal(run.runId)));
      // The history a new run selected is at hand; a resumed run reads the runs its `run-started`
      // refers to again (format 2, ADR 0010); a format-1 `run-started` carries its own copy.
      let history: SelectedHistory | undefined =
        outcome === 'created' && started ? { messages: started.history, parts: started.parts } : undefined;
      // A run a host created (`createRun`) starts here: its first owner writes `run-started` from
      // the recorded request, after whatever supplements reached it while it was pending.
      if (!hasAgentRunStarted(journal)) ({ journal, history } = await startPendingRun(agent, request, run, journal, now()));
      history ??= await call(() => historyOf(store, run, journal));
      const state = foldAgentJournal(run.runId, journal, history?.messages);
      assertSameRun(
        run.runId,
        journal.find((entry) => entry.type === 'run-started'),
        agentIdentity,
        request.input,
      );
      const identity = { runId: run.runId, sessionId: run.sessionId };
      return {
        state,
        lastSequence: journal.at(-1)?.sequence ?? 0,
        deadlineAt: state.deadlineAt,
        stopRequested: Boolean(state.stopRequested),
        apply: applyAgentEntry,
        onCommitted: (entry) => {
          // A stop requested from any process reaches the owner here, at its next renewal at the
          // latest (S-5): calls in flight settle, nothing new starts, the run ends `user-stop`.
          if (entry.type === 'stop-requested') control.stop();
          const event = eventOfEntry(identity, state, entry);
          if (event) emit(event);
        },
        run,
        outcome,
        journal,
        parts: history?.parts,
      };
    },
    drive: async (durable, opened) => {
      emitStart(agent, opened, durable, emit);
      const context = contextOf(agent, opened, durable, control, emit, now);
      await restoreReplacedVariant(agent, durable, opened.run.sessionId);
      if (opened.outcome === 'acquired' && opened.state.stopRequested) await recordLostAttempts(context);
      return driveToResult(context, agent.entry, opened.outcome === 'acquired');
    },
    // Every result of `driveToResult` is terminal: interruptions that leave the run unfinished throw.
    ends: () => true,
  });
}

/** What the agent's nodes run with: the owned run, its model, policies and governance. */
function contextOf(
  agent: RunnableAgent,
  opened: OpenedAgentRun,
  durable: DurableRun<AgentRunState, AgentJournalRecord>,
  control: RunControl,
  emit: (event: RunEvent) => void,
  now: () => number,
): RunContext {
  const { run, state, parts } = opened;
  return {
    runId: run.runId,
    sessionId: run.sessionId,
    metadata: run.metadata,
    model: agent.model,
    fallbackModels: agent.fallbackModels,
    durable,
    control,
    retry: { ...state.execution.retry, ...(agent.isRetryable ? { isRetryable: agent.isRetryable } : {}) },
    emit: (event) => emit({ ...event, sequence: durable.sequence }),
    now,
    countTokens: agent.countTokens,
    compressionPrompt: agent.compressionPrompt,
    contextFeatures: agent.contextFeatures,
    governance: agent.governance,
    createdAt: run.createdAt,
    ...(parts ? { history: parts } : {}),
  };
}

/**
 * A run that regenerates an answer first rolls back the file changes of the variant it replaces
 * (N-6, N-15), then journals that it did: a crash in between redoes the rollback, which finds
 * only what is left to restore (restored changes leave the checkpoint log).
 */
async function restoreReplacedVariant(
  agent: RunnableAgent,
  durable: DurableRun<AgentRunState, AgentJournalRecord>,
  sessionId: string,
): Promise<void> {
  const { variant, variantFilesRestored } = durable.state;
  if (!variant || variantFilesRestored) return;
  const outcome = agent.restoreVariantFiles
    ? await agent.restoreVariantFiles({ sessionId, runId: variant.replaces })
    : { restored: [], failed: [] };
  await durable.commit(() => ({
    entries: [{ type: 'variant-files-restored', data: { replaces: variant.replaces, ...outcome } }],
  }));
}

/**
 * The run's `run-start`: for a run started by this owner, the durable one projected from
 * `run-started` as any reader of the journal sees it; for a resumed run a live one with its epoch.
 */
function emitStart(
  agent: RunnableAgent,
  { run, outcome, journal, state }: OpenedAgentRun,
  durable: DurableRun<AgentRunState, AgentJournalRecord>,
  emit: (event: RunEvent) => void,
): void {
  const startEntry = journal.find((entry) => entry.type === 'run-started') as JournalEntry;
  if (outcome === 'created' || startEntry.epoch === run.epoch) {
    const event = eventOfEntry({ runId: run.runId, sessionId: run.sessionId }, state, startEntry);
    if (event) emit(event);
    return;
  }
  emit({
    type: 'run-start',
    runId: run.runId,
    sessionId: run.sessionId,
    agentName: agent.name,
    resumed: true,
    epoch: run.epoch,
    sequence: durable.sequence,
  });
}

/**
 * Writes `run-started` for a run a host recorded with `createRun`: the input comes from the
 * recorded request (a different one from the caller is refused, R-3), the history and deadline
 * are fixed now, when execution begins. Answers the journal with the new entry.
 */
async function startPendingRun(
  agent: RunnableAgent,
  request: RunRequest,
  run: RunRecord,
  journal: JournalEntry[],
  now: number,
): Promise<{ journal: JournalEntry[]; history: SelectedHistory }> {
  const requested = findRunRequest(journal);
  if (!requested) throw new UnsupportedJournalFormatError(run.runId, undefined);
  const recorded = typeof requested.input === 'string' ? requested.input : JSON.stringify(requested.input);
  // A host records the input as typed: a user command in it is expanded now, as `run()` does (N-15).
  const expanded = typeof requested.input === 'string' ? agent.expandCommand(recorded) : undefined;
  const input = expanded?.text ?? recorded;
  if (request.input !== undefined && request.input !== input) {
    throw new InvalidRunRequestError(run.runId, `Run ${run.runId} was requested with another input; it is never replaced (R-3).`);
  }
  const started = await createRunStartedEntry(
    agent,
    {
      ...request,
      input,
      variables: { ...(request.variables ?? {}), ...(requested.variables ?? {}) },
      ...(requested.sessionNote ? { sessionNote: requested.sessionNote } : {}),
      ...(expanded ? { command: expanded.command } : {}),
    },
    now,
  );
  const { lastSequence } = await agent.store.append({ runId: run.runId, epoch: run.epoch, entries: [started.record] });
  const history = { messages: started.history, parts: started.parts };
  // Nothing came between (a supplement appended meanwhile would): the journal is the one read
  // plus this entry, its data copied through JSON as a store gives it back; no read (issue 34).
  // Its time is this process's (the engine never reads an entry's `at`).
  if (lastSequence !== (journal.at(-1)?.sequence ?? 0) + 1) return { journal: await agent.store.readJournal(run.runId), history };
  const data: unknown = JSON.parse(JSON.stringify(started.record.data));
  return {
    journal: [...journal, { sequence: lastSequence, epoch: run.epoch, at: now, type: started.record.type, data }],
    history,
  };
}

/** The history a run's `run-started` refers to (format 2), read again; undefined for format 1, which carries it. */
async function historyOf(
  store: RunnableAgent['store'],
  run: RunRecord,
  journal: readonly JournalEntry[],
): Promise<SelectedHistory | undefined> {
  const reference = agentJournal.find(journal, 'run-started')?.data.historyFrom;
  return reference ? resolveHistory(store, run.sessionId, run.runId, reference) : undefined;
}

/**
 * The `run-started` entry of a run a host created: it follows `run-requested` and whatever reached
 * the pending run; for a run stopped before it started, the request stands in for it.
 */
async function startOf(store: RunnableAgent['store'], runId: string): Promise<JournalEntry | undefined> {
  const journal = await store.readJournal(runId);
  return journal.find((entry) => entry.type === 'run-started');
}
