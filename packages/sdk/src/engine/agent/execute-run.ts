import { InvalidRunRequestError, RunOwnedElsewhereError, UnsupportedJournalFormatError } from '../../core/errors/index.js';
import { createOwnerId } from '../../core/ids.js';
import type { RetryPolicy } from '../../core/retry-policy.js';
import type { RunResult } from '../../core/run-result.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { JournalEntry, RunMetadata, RunRecord, RunStore } from '../../store/run-store.js';
import { DurableRun } from '../run/durable-run.js';
import type { RunControl } from '../run/run-control.js';
import { findRunRequest } from '../run/run-requests.js';
import type { WindowSettings } from './agent-journal.js';
import { type AgentRunState, applyAgentEntry, foldAgentJournal, hasAgentRunStarted } from './agent-state.js';
import type { TokenCounter } from './context-options.js';
import { driveToResult } from './drive-run.js';
import type { ResolvedExecution } from './execution-options.js';
import type { Governance } from './governance/governance.js';
import type { Node } from './nodes/node.js';
import { recordLostAttempts } from './operation-runner.js';
import type { RunContext } from './run-context.js';
import { eventOfEntry, type RunEvent } from './run-events.js';
import { createRunStartedEntry } from './start-run.js';

/** What an agent contributes to one execution of a run. */
export interface RunnableAgent {
  name: string;
  model: LanguageModel;
  mode: 'react' | 'plan-executor';
  store: RunStore;
  /** The node of the entry task: the ReAct role, or the planner. */
  entry: Node;
  /** Execution settings for a run created now; a resumed run uses its stored snapshot (C-15). */
  execution: ResolvedExecution;
  isRetryable?: RetryPolicy['isRetryable'];
  leaseMs: number;
  /** How many finished runs of the session a new run sees in full (C-1). */
  historyRuns: number;
  /** Context-window settings for a run created now (C-2). */
  window: WindowSettings;
  /** Counts tokens of a request; the default estimates. */
  countTokens: TokenCounter;
  /** Extra instructions for the compression agent (H-6). */
  compressionPrompt: string | undefined;
  governance: Governance;
}

/** How an execution reports back to its `Run` handle. */
export interface RunHooks {
  emit: (event: RunEvent) => void;
  /** Called once the run is owned here, with what a durable stop request needs. */
  owned?: (durable: DurableRun<AgentRunState>) => void;
  /** Called once the store has answered `acquire`: from then on the run exists (or existed). */
  acquired: () => void;
}

/** Identity and input of one `run` call. */
export interface RunRequest {
  runId: string;
  sessionId: string;
  input?: string;
  limits?: RunLimits;
  /** Prompt variables, complete (checked by `Agent.run`). */
  variables?: Record<string, string>;
  /** Host labels stored on a run created now (a release id …). */
  metadata?: RunMetadata;
}

/**
 * Limits a caller imposes on a new run on top of the agent's own settings, such as a workflow
 * passing down its root run's remaining budget and deadline (W-6). They can only tighten: the
 * run takes the smaller value. Stored with the run, so a resume keeps them.
 */
export interface RunLimits {
  /** Epoch milliseconds: the run ends `run-timeout` no later than this. */
  deadlineAt?: number;
  /** At most this many loops, across every role of the run. */
  maxLoops?: number;
}

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
  const existing = await store.getRun(request.runId);
  if (!existing && request.input === undefined) {
    throw new InvalidRunRequestError(request.runId, `Run ${request.runId} does not exist; a new run needs an input.`);
  }
  if (existing && existing.kind !== 'agent') {
    throw new InvalidRunRequestError(
      request.runId,
      `Run ${request.runId} is a ${existing.kind} run; an agent cannot execute it.`,
    );
  }
  const started = existing ? undefined : await createRunStartedEntry(agent, request, now());
  const acquired = await store.acquire({
    runId: request.runId,
    sessionId: request.sessionId,
    ownerId,
    leaseMs: agent.leaseMs,
    deadlineAt: (started?.data as { deadlineAt?: number } | undefined)?.deadlineAt ?? 0,
    // A run that existed at `getRun` is never created again, so no entries are needed for it.
    initialEntries: started ? [started] : [],
    labels: { kind: 'agent', name: agent.name, metadata: request.metadata ?? {} },
  });
  hooks.acquired();
  const { run } = acquired;
  if (acquired.outcome === 'terminal') {
    const result = run.result as RunResult;
    emit({ type: 'run-finish', runId: run.runId, result, sequence: run.lastSequence });
    return result;
  }
  if (acquired.outcome === 'owned-elsewhere') {
    throw new RunOwnedElsewhereError(run.runId, run.ownerId ?? 'unknown', run.leaseExpiresAt);
  }
  let state: AgentRunState;
  let journal: JournalEntry[];
  try {
    journal = await store.readJournal(run.runId);
    // A run a host created (`createRun`) starts here: its first owner writes `run-started` from
    // the recorded request, after whatever supplements reached it while it was pending.
    if (!hasAgentRunStarted(journal)) journal = await startPendingRun(agent, request, run, journal, now());
    state = foldAgentJournal(run.runId, journal);
    if (state.mode !== agent.mode || state.entryRole !== agent.entry.role.name) {
      throw new InvalidRunRequestError(
        run.runId,
        `Run ${run.runId} was created by a ${state.mode} agent with entry role "${state.entryRole}"; resume it with the same configuration (B-5).`,
      );
    }
    if (request.input !== undefined && request.input !== state.input) {
      throw new InvalidRunRequestError(run.runId, `Run ${run.runId} was started with another input; it is never replaced (R-3).`);
    }
  } catch (error) {
    await store.releaseLease(run.runId, run.epoch).catch(() => {});
    throw error;
  }

  const identity = { runId: run.runId, sessionId: run.sessionId };
  const durable = new DurableRun<AgentRunState>({
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
): Promise<JournalEntry[]> {
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
  await agent.store.append({ runId: run.runId, epoch: run.epoch, entries: [started] });
  return agent.store.readJournal(run.runId);
}
