import { InvalidRunRequestError, RunOwnedElsewhereError, UnsupportedJournalFormatError } from '../../core/errors/index.js';
import { createOwnerId } from '../../core/ids.js';
import type { RunResult } from '../../core/run-result.js';
import type { AcquireResult, JournalEntry, RunRecord } from '../../store/run-store.js';
import { DurableRun } from '../run/durable-run.js';
import type { RunControl } from '../run/run-control.js';
import { findRunRequest } from '../run/run-requests.js';
import { retryTransient } from '../run/store-retry.js';
import type { AgentJournalRecord, HistoryReference } from './agent-journal.js';
import { type AgentRunState, applyAgentEntry, foldAgentJournal, hasAgentRunStarted } from './agent-state.js';
import { driveToResult } from './drive-run.js';
import { recordLostAttempts } from './operation-runner.js';
import type { RunContext } from './run-context.js';
import { eventOfEntry, type RunEvent } from './run-events.js';
import { assertSameRun } from './run-identity.js';
import type { RunnableAgent, RunRequest } from './runnable-agent.js';
import { type HistoryParts, resolveHistory, type SelectedHistory } from './session/index.js';
import { createRunStartedEntry } from './start-run.js';

/** How an execution reports back to its `Run` handle. */
export interface RunHooks {
  emit: (event: RunEvent) => void;
  /** Called once the run is owned here, with what a durable stop request needs. */
  owned?: (durable: DurableRun<AgentRunState, AgentJournalRecord>) => void;
  /** Called once the store has answered `acquire`: from then on the run exists (or existed). */
  acquired: () => void;
}

export type { RunLimits, RunnableAgent, RunRequest } from './runnable-agent.js';

/**
 * Executes one `run` call by the run's stored state: creates a new run, takes over an
 * unfinished one whose owner is gone, answers `owned-elsewhere` while a live owner holds it, or
 * returns the stored result of a finished one without calling the model. Re-entering never
 * appends the input again nor resets the budget or deadline.
 */
export async function executeAgentRun(
  agent: RunnableAgent,
  request: RunRequest,
  control: RunControl,
  hooks: RunHooks,
): Promise<RunResult> {
  const { emit } = hooks;
  const { store } = agent;
  const ownerId = createOwnerId();
  const now = Date.now;
  // The history and carried supplements are selected only for a run that does not exist yet; a
  // race with another creator is settled by `acquire` (only one `created`).
  // The calls before the run is ours have no side effect to lose: a transient store failure is
  // retried for up to one lease length, then reported.
  const startedAt = now();
  const retrying = <T>(call: () => Promise<T>) => retryTransient(call, { until: () => startedAt + agent.leaseMs });
  const existing = await retrying(() => store.getRun(request.runId));
  if (!existing && request.input === undefined) {
    throw new InvalidRunRequestError(request.runId, `Run ${request.runId} does not exist; a new run needs an input.`);
  }
  if (existing && existing.kind !== 'agent') {
    throw new InvalidRunRequestError(
      request.runId,
      `Run ${request.runId} is a ${existing.kind} run; an agent cannot execute it.`,
    );
  }
  const started = existing ? undefined : await retrying(() => createRunStartedEntry(agent, request, now()));
  const acquired = ownAcquire(
    ownerId,
    Boolean(started),
    await retrying(() =>
      store.acquire({
        runId: request.runId,
        sessionId: request.sessionId,
        ownerId,
        leaseMs: agent.leaseMs,
        deadlineAt: (started?.record.data as { deadlineAt?: number } | undefined)?.deadlineAt ?? 0,
        // A run that existed at `getRun` is never created again, so no entries are needed for it.
        initialEntries: started ? [started.record] : [],
        labels: { kind: 'agent', name: agent.name, metadata: request.metadata ?? {} },
      }),
    ),
  );
  hooks.acquired();
  const { run } = acquired;
  const agentIdentity = { name: agent.name, mode: agent.mode, roles: agent.roles };
  if (acquired.outcome === 'terminal') {
    // A finished run's answer goes only to its own agent and question.
    const [first] = await retrying(() => store.readJournal(run.runId, { limit: 1 }));
    const start = first?.type === 'run-requested' ? await retrying(() => startOf(store, run.runId)) : first;
    assertSameRun(run.runId, start, agentIdentity, request.input);
    const result = run.result as RunResult;
    emit({ type: 'run-finish', runId: run.runId, result, sequence: run.lastSequence });
    return result;
  }
  if (acquired.outcome === 'owned-elsewhere') {
    throw new RunOwnedElsewhereError(run.runId, run.ownerId ?? 'unknown', run.leaseExpiresAt);
  }
  let state: AgentRunState;
  let journal: JournalEntry[];
  let parts: HistoryParts | undefined;
  try {
    journal = await retrying(() => store.readJournal(run.runId));
    // The history a new run selected is at hand; a resumed run reads the runs its `run-started`
    // refers to again (format 2, ADR 0010); a format-1 `run-started` carries its own copy.
    let history: SelectedHistory | undefined =
      acquired.outcome === 'created' && started ? { messages: started.history, parts: started.parts } : undefined;
    // A run a host created (`createRun`) starts here: its first owner writes `run-started` from
    // the recorded request, after whatever supplements reached it while it was pending.
    if (!hasAgentRunStarted(journal)) ({ journal, history } = await startPendingRun(agent, request, run, journal, now()));
    history ??= await retrying(() => historyOf(store, run, journal));
    parts = history?.parts;
    state = foldAgentJournal(run.runId, journal, history?.messages);
    assertSameRun(
      run.runId,
      journal.find((entry) => entry.type === 'run-started'),
      agentIdentity,
      request.input,
    );
  } catch (error) {
    await store.releaseLease(run.runId, run.epoch).catch(() => {});
    throw error;
  }

  const identity = { runId: run.runId, sessionId: run.sessionId };
  const durable = new DurableRun<AgentRunState, AgentJournalRecord>({
    store,
    runId: run.runId,
    epoch: run.epoch,
    leaseMs: agent.leaseMs,
    lastSequence: journal.at(-1)?.sequence ?? 0,
    state,
    control,
    apply: applyAgentEntry,
    onCommitted: (entry) => {
      // A stop requested from any process reaches the owner here, at its next renewal at the
      // latest (S-5): calls in flight settle, nothing new starts, the run ends `user-stop`.
      if (entry.type === 'stop-requested') control.stop();
      const event = eventOfEntry(identity, state, entry);
      if (event) emit(event);
    },
  });
  hooks.owned?.(durable);
  const context: RunContext = {
    runId: run.runId,
    sessionId: run.sessionId,
    model: agent.model,
    durable,
    control,
    retry: { ...state.execution.retry, ...(agent.isRetryable ? { isRetryable: agent.isRetryable } : {}) },
    emit: (event) => emit({ ...event, sequence: durable.sequence }),
    now,
    countTokens: agent.countTokens,
    compressionPrompt: agent.compressionPrompt,
    governance: agent.governance,
    createdAt: run.createdAt,
    ...(parts ? { history: parts } : {}),
  };
  control.armDeadline(state.deadlineAt);
  // A stop requested before this owner took the run (while pending, or from a dead owner's time)
  // is honoured at once (S-5).
  if (state.stopRequested) control.stop();
  durable.startLeaseRenewal();
  const startedHere =
    acquired.outcome === 'created' || journal.some((entry) => entry.type === 'run-started' && entry.epoch === run.epoch);
  if (startedHere) {
    // The durable `run-start`, projected from `run-started` as any reader of the journal sees it.
    const startEntry = journal.find((entry) => entry.type === 'run-started') as JournalEntry;
    const event = eventOfEntry(identity, state, startEntry);
    if (event) emit(event);
  } else {
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
  let ended = false;
  try {
    if (acquired.outcome === 'acquired' && state.stopRequested) await recordLostAttempts(context);
    const result = await driveToResult(context, agent.entry, acquired.outcome === 'acquired');
    ended = true;
    return result;
  } finally {
    control.dispose();
    await durable.dispose({ release: !ended });
  }
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
  const input = typeof requested.input === 'string' ? requested.input : JSON.stringify(requested.input);
  if (request.input !== undefined && request.input !== input) {
    throw new InvalidRunRequestError(run.runId, `Run ${run.runId} was requested with another input; it is never replaced (R-3).`);
  }
  const started = await createRunStartedEntry(
    agent,
    { ...request, input, variables: { ...(request.variables ?? {}), ...(requested.variables ?? {}) } },
    now,
  );
  await agent.store.append({ runId: run.runId, epoch: run.epoch, entries: [started.record] });
  return { journal: await agent.store.readJournal(run.runId), history: { messages: started.history, parts: started.parts } };
}

/** The history a run's `run-started` refers to (format 2), read again; undefined for format 1, which carries it. */
async function historyOf(
  store: RunnableAgent['store'],
  run: RunRecord,
  journal: readonly JournalEntry[],
): Promise<SelectedHistory | undefined> {
  const start = journal.find((entry) => entry.type === 'run-started');
  const reference = (start?.data as { historyFrom?: HistoryReference } | undefined)?.historyFrom;
  return reference ? resolveHistory(store, run.sessionId, run.runId, reference) : undefined;
}

/**
 * An `acquire` retried after a transient failure may find that its first try landed: the run is
 * then held by this very call's owner id (unique per call), which is ours, not someone else's.
 */
function ownAcquire(ownerId: string, creating: boolean, result: AcquireResult): AcquireResult {
  if (result.outcome !== 'owned-elsewhere' || result.run.ownerId !== ownerId) return result;
  return { outcome: creating ? 'created' : 'acquired', run: result.run };
}

/**
 * The `run-started` entry of a run a host created: it follows `run-requested` and whatever reached
 * the pending run; for a run stopped before it started, the request stands in for it.
 */
async function startOf(store: RunnableAgent['store'], runId: string): Promise<JournalEntry | undefined> {
  const journal = await store.readJournal(runId);
  return journal.find((entry) => entry.type === 'run-started');
}
