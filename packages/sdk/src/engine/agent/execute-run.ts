import { InvalidRunRequestError, RunOwnedElsewhereError } from '../../core/errors/index.js';
import { createOwnerId } from '../../core/ids.js';
import type { RetryPolicy } from '../../core/retry-policy.js';
import type { RunResult } from '../../core/run-result.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { AcquireResult, JournalEntry, RunStore } from '../../store/run-store.js';
import { DurableRun } from '../run/durable-run.js';
import type { RunControl } from '../run/run-control.js';
import { retryTransient } from '../run/store-retry.js';
import type { WindowSettings } from './agent-journal.js';
import { type AgentRunState, applyAgentEntry, foldAgentJournal } from './agent-state.js';
import type { TokenCounter } from './context-options.js';
import { driveToResult } from './drive-run.js';
import type { ResolvedExecution } from './execution-options.js';
import type { Governance } from './governance/governance.js';
import type { Node } from './nodes/node.js';
import type { RunContext } from './run-context.js';
import { eventOfEntry, type RunEvent } from './run-events.js';
import { assertSameRun } from './run-identity.js';
import { createRunStartedEntry } from './start-run.js';

/** What an agent contributes to one execution of a run. */
export interface RunnableAgent {
  name: string;
  /** Role names, entry role first: with `name` and `mode`, the identity recorded in the run. */
  roles: readonly string[];
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
  // The calls before the run is ours have no side effect to lose: a transient store failure is
  // retried for up to one lease length, then reported.
  const startedAt = now();
  const retrying = <T>(call: () => Promise<T>) => retryTransient(call, { until: () => startedAt + agent.leaseMs });
  const existing = await retrying(() => store.getRun(request.runId));
  if (!existing && request.input === undefined) {
    throw new InvalidRunRequestError(request.runId, `Run ${request.runId} does not exist; a new run needs an input.`);
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
        deadlineAt: (started?.data as { deadlineAt?: number } | undefined)?.deadlineAt ?? 0,
        // A run that existed at `getRun` is never created again, so no entries are needed for it.
        initialEntries: started ? [started] : [],
      }),
    ),
  );
  hooks.acquired();
  const { run } = acquired;
  const identity = { name: agent.name, mode: agent.mode, roles: agent.roles };
  if (acquired.outcome === 'terminal') {
    // A finished run's answer goes only to its own agent and question.
    const [first] = await retrying(() => store.readJournal(run.runId, { limit: 1 }));
    assertSameRun(run.runId, first, identity, request.input);
    const result = run.result as RunResult;
    emit({ type: 'run-finish', runId: run.runId, result });
    return result;
  }
  if (acquired.outcome === 'owned-elsewhere') {
    throw new RunOwnedElsewhereError(run.runId, run.ownerId ?? 'unknown', run.leaseExpiresAt);
  }
  let state: AgentRunState;
  let journal: JournalEntry[];
  try {
    journal = await retrying(() => store.readJournal(run.runId));
    state = foldAgentJournal(run.runId, journal);
    assertSameRun(run.runId, journal[0], identity, request.input);
  } catch (error) {
    await store.releaseLease(run.runId, run.epoch).catch(() => {});
    throw error;
  }

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
      const event = eventOfEntry(run.runId, state, entry);
      if (event) emit(event);
    },
  });
  const context: RunContext = {
    runId: run.runId,
    sessionId: run.sessionId,
    model: agent.model,
    durable,
    control,
    retry: { ...state.execution.retry, ...(agent.isRetryable ? { isRetryable: agent.isRetryable } : {}) },
    emit,
    now,
    countTokens: agent.countTokens,
    compressionPrompt: agent.compressionPrompt,
    governance: agent.governance,
  };
  control.armDeadline(state.deadlineAt);
  durable.startLeaseRenewal();
  emit({
    type: 'run-start',
    runId: run.runId,
    sessionId: run.sessionId,
    agentName: agent.name,
    resumed: acquired.outcome === 'acquired',
    epoch: run.epoch,
  });
  let ended = false;
  try {
    const result = await driveToResult(context, agent.entry, acquired.outcome === 'acquired');
    ended = true;
    return result;
  } finally {
    control.dispose();
    await durable.dispose({ release: !ended });
  }
}

/**
 * An `acquire` retried after a transient failure may find that its first try landed: the run is
 * then held by this very call's owner id (unique per call), which is ours, not someone else's.
 */
function ownAcquire(ownerId: string, creating: boolean, result: AcquireResult): AcquireResult {
  if (result.outcome !== 'owned-elsewhere' || result.run.ownerId !== ownerId) return result;
  return { outcome: creating ? 'created' : 'acquired', run: result.run };
}
