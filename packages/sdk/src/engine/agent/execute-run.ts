import { InvalidRunRequestError, ModelCallError, OwnershipLostError, RunOwnedElsewhereError } from '../../core/errors/index.js';
import type { Failure } from '../../core/failure.js';
import { createOwnerId } from '../../core/ids.js';
import type { RetryPolicy } from '../../core/retry-policy.js';
import type { RunResult, RunStatus, TerminalReason } from '../../core/run-result.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { RunStore } from '../../store/run-store.js';
import { DurableRun } from '../run/durable-run.js';
import { type RunControl, RunInterrupt } from '../run/run-control.js';
import { AGENT_JOURNAL_FORMAT } from './agent-journal.js';
import { type AgentRunState, applyAgentEntry, ENTRY_TASK_ID, foldAgentJournal } from './agent-state.js';
import type { ResolvedExecution } from './execution-options.js';
import type { Node } from './nodes/node.js';
import type { RunContext } from './run-context.js';
import { eventOfEntry, type RunEvent } from './run-events.js';

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
}

/** Identity and input of one `run` call. */
export interface RunRequest {
  runId: string;
  sessionId: string;
  input?: string;
  limits?: RunLimits;
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
  emit: (event: RunEvent) => void,
): Promise<RunResult> {
  const { store } = agent;
  const ownerId = createOwnerId();
  const now = Date.now;
  if (request.input === undefined && !(await store.getRun(request.runId))) {
    throw new InvalidRunRequestError(request.runId, `Run ${request.runId} does not exist; a new run needs an input.`);
  }
  const limits = request.limits ?? {};
  const deadlineAt = Math.min(now() + agent.execution.timeoutMs, limits.deadlineAt ?? Number.POSITIVE_INFINITY);
  const execution: ResolvedExecution =
    limits.maxLoops !== undefined && limits.maxLoops < agent.execution.maxLoops
      ? { ...agent.execution, maxLoops: Math.max(0, Math.floor(limits.maxLoops)) }
      : agent.execution;
  const acquired = await store.acquire({
    runId: request.runId,
    sessionId: request.sessionId,
    ownerId,
    leaseMs: agent.leaseMs,
    deadlineAt,
    initialEntries: [
      {
        type: 'run-started',
        data: {
          formatVersion: AGENT_JOURNAL_FORMAT,
          agentName: agent.name,
          mode: agent.mode,
          entryRole: agent.entry.role.name,
          input: request.input ?? '',
          execution,
          deadlineAt,
        },
      },
    ],
  });
  const { run } = acquired;
  if (acquired.outcome === 'terminal') {
    const result = run.result as RunResult;
    emit({ type: 'run-finish', runId: run.runId, result });
    return result;
  }
  if (acquired.outcome === 'owned-elsewhere') {
    throw new RunOwnedElsewhereError(run.runId, run.ownerId ?? 'unknown', run.leaseExpiresAt);
  }
  let state: AgentRunState;
  try {
    state = foldAgentJournal(run.runId, await store.readJournal(run.runId));
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

  const durable = new DurableRun<AgentRunState>({
    store,
    runId: run.runId,
    epoch: run.epoch,
    leaseMs: agent.leaseMs,
    lastSequence: run.lastSequence,
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
  };
  control.armDeadline(state.deadlineAt);
  durable.startLeaseRenewal();
  emit({
    type: 'run-start',
    runId: run.runId,
    sessionId: run.sessionId,
    resumed: acquired.outcome === 'acquired',
    epoch: run.epoch,
  });
  let ended = false;
  try {
    const result = await driveToResult(context, agent.entry);
    ended = true;
    return result;
  } finally {
    control.dispose();
    await durable.dispose({ release: !ended });
  }
}

async function driveToResult(context: RunContext, entry: Node): Promise<RunResult> {
  try {
    const outcome = await entry.drive(context, ENTRY_TASK_ID);
    if (outcome.kind === 'answered') return await finishRun(context, 'succeeded', { output: outcome.answer });
    return await finishRun(context, 'failed', { reason: 'loop-budget-exhausted' });
  } catch (error) {
    const interrupt = RunInterrupt.isInstance(error) ? error : context.control.interrupt;
    if (OwnershipLostError.isInstance(error) || interrupt?.reason === 'ownership-lost') {
      throw OwnershipLostError.isInstance(error) ? error : new OwnershipLostError(context.runId, { cause: interrupt?.cause });
    }
    if (interrupt?.reason === 'user-stop') return await finishRun(context, 'stopped', { reason: 'user-stop' });
    if (interrupt?.reason === 'run-timeout') return await finishRun(context, 'failed', { reason: 'run-timeout' });
    if (ModelCallError.isInstance(error)) {
      return await finishRun(context, 'failed', { reason: 'model-failed', failure: error.failure });
    }
    throw error;
  }
}

async function finishRun(
  context: RunContext,
  status: RunStatus,
  detail: { output?: string; reason?: TerminalReason; failure?: Failure },
): Promise<RunResult> {
  let result: RunResult | undefined;
  await context.durable.commit((state) => {
    result = {
      runId: context.runId,
      sessionId: context.sessionId,
      status,
      ...detail,
      loops: state.loopsUsed,
      usage: { ...state.usage },
    };
    return { entries: [{ type: 'run-finished', data: result }], terminal: result };
  });
  return result as RunResult;
}
