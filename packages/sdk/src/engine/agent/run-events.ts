import type { Failure } from '../../core/failure.js';
import type { Usage } from '../../core/messages.js';
import type { RunResult } from '../../core/run-result.js';
import type { FinishReason, ModelResponseMetadata } from '../../model/language-model.js';
import type { JournalEntry } from '../../store/run-store.js';
import { agentJournal, type ModelIdentity } from './agent-journal.js';
import { type AgentRunState, applyAgentEntry, foldAgentJournal } from './agent-state.js';
import type { ContextReport } from './context-features/index.js';

/**
 * Low-frequency lifecycle events of a run (S-7), named `<noun>-<verb>`, without their position.
 * Apart from `model-call-start` and the `run-start` of a resumed run, each one reports a fact
 * that is already durable, and is derived from the journal entry that records it — by the owner
 * as it commits, and by `RunClient.readEvents` / `follow` in any other process.
 */
export type RunEventData =
  | { type: 'run-start'; runId: string; sessionId: string; agentName: string; resumed: boolean; epoch: number }
  | { type: 'loop-start'; runId: string; taskId: string; loop: number; loopsUsed: number }
  | { type: 'model-call-start'; runId: string; taskId: string; loop: number; attempt: number; provider: string; modelId: string }
  | {
      type: 'model-call-fail';
      runId: string;
      taskId: string;
      loop: number;
      attempt: number;
      failure: Failure;
      willRetry: boolean;
    }
  | {
      type: 'model-call-finish';
      runId: string;
      taskId: string;
      loop: number;
      finishReason: FinishReason;
      usage: Usage;
      toolCalls: number;
      /** The provider's id and model of the response, when it gave them. */
      response?: ModelResponseMetadata;
      /** The model of the fallback chain that answered (agents with fallback models, N-15). */
      model?: ModelIdentity;
      /** Section sizes and system-prefix hash of the request (N-15). */
      context?: ContextReport;
    }
  | {
      type: 'model-fallback';
      runId: string;
      taskId: string;
      loop: number;
      /** The model that failed for good, and the next of the chain that every later call uses. */
      from: ModelIdentity;
      to: ModelIdentity;
      failure: Failure;
    }
  | {
      type: 'tool-call-start';
      runId: string;
      taskId: string;
      operationId: string;
      toolName: string;
      /** The id the model gave the call (the provider's `call_…`), when known. */
      toolCallId?: string;
      attempt: number;
      arguments: unknown;
    }
  | {
      type: 'tool-call-fail';
      runId: string;
      taskId: string;
      operationId: string;
      toolName: string;
      attempt: number;
      failure: Failure;
      retryAt: number;
    }
  | {
      type: 'tool-call-finish';
      runId: string;
      taskId: string;
      operationId: string;
      toolName: string;
      status: 'succeeded' | 'failed';
      /** What the model reads for this call (the effective result). */
      content: string;
      failure?: Failure;
    }
  | { type: 'batch-join'; runId: string; taskId: string; loop: number }
  /** A call waits for approval (K-5): decide it with `RunClient.decideApproval(runId, { approvalId, … })`. */
  | {
      type: 'approval-request';
      runId: string;
      taskId: string;
      approvalId: string;
      toolName: string;
      arguments: unknown;
      reason: string;
    }
  /** An approval was decided. */
  | { type: 'approval-decide'; runId: string; approvalId: string; approved: boolean; decidedBy: string }
  /**
   * An MCP server asked the run's user a question during a call (ADR 0038): the run waits for
   * `RunClient.answerElicitation(runId, { elicitationId, … })`, content matching `requestedSchema`.
   */
  | {
      type: 'elicitation-request';
      runId: string;
      taskId: string;
      elicitationId: string;
      operationId: string;
      toolName: string;
      server: string;
      message: string;
      mode: 'form' | 'url';
      requestedSchema?: Record<string, unknown>;
      url?: string;
    }
  /** An elicitation was answered (the content stays in the journal and the run view, not the event). */
  | {
      type: 'elicitation-answer';
      runId: string;
      elicitationId: string;
      action: 'accept' | 'decline' | 'cancel';
      answeredBy: string;
    }
  /** A supplement reached the run (from this or another machine). */
  | { type: 'supplement-accept'; runId: string; supplementId: string }
  /** Supplements entered the entry role's context before its next model call. */
  | { type: 'supplement-consume'; runId: string; taskId: string; supplementIds: string[] }
  /** A delegation became an executor task (a sub-agent started). */
  | { type: 'task-start'; runId: string; taskId: string; role: string; parentTaskId: string }
  /** An executor task ended; its result goes to the planner's batch. */
  | { type: 'task-finish'; runId: string; taskId: string; role: string; status: 'succeeded' | 'failed'; failure?: Failure }
  /** A final answer did not match the role's output schema and went back for correction (O-1). */
  | { type: 'answer-reject'; runId: string; taskId: string; loop: number }
  /** Someone asked the run to stop (from any process); the owner ends it `user-stop` (S-5). */
  | { type: 'stop-request'; runId: string; reason?: string; requestedBy: string }
  | { type: 'run-finish'; runId: string; result: RunResult };

/**
 * A lifecycle event with its position: `sequence` is the journal sequence of the entry the event
 * reports. A live-only event (`model-call-start`, a resumed `run-start`) carries the sequence of
 * the last entry before it, so `afterSequence` never skips a durable event. Durable events are
 * exactly the ones `RunClient.readEvents` returns, in the same order, with the same content.
 */
export type RunEvent = RunEventData & { sequence: number };

/**
 * Maps a committed journal entry to the lifecycle event it announces, if any, from the run's
 * state right after the entry was applied (undefined before `run-started`, for a pending run).
 */
export function eventOfEntry(
  identity: { runId: string; sessionId: string },
  state: AgentRunState | undefined,
  entry: JournalEntry,
): RunEvent | undefined {
  const data = eventDataOfEntry(identity, state, entry);
  return data ? { ...data, sequence: entry.sequence } : undefined;
}

function eventDataOfEntry(
  { runId, sessionId }: { runId: string; sessionId: string },
  state: AgentRunState | undefined,
  entry: JournalEntry,
): RunEventData | undefined {
  const record = agentJournal.recordOf(entry);
  switch (record.type) {
    case 'run-started':
      return {
        type: 'run-start',
        runId,
        sessionId,
        agentName: record.data.agentName,
        resumed: false,
        epoch: entry.epoch,
      };
    case 'stop-requested':
      return {
        type: 'stop-request',
        runId,
        requestedBy: record.data.requestedBy,
        ...(record.data.reason !== undefined ? { reason: record.data.reason } : {}),
      };
    case 'loop-started':
      return { type: 'loop-start', runId, taskId: record.taskId, loop: record.data.loop, loopsUsed: state?.loopsUsed ?? 0 };
    case 'model-attempt-failed':
      return {
        type: 'model-call-fail',
        runId,
        taskId: record.taskId,
        loop: record.data.loop,
        attempt: record.data.attempt,
        failure: record.data.failure,
        willRetry: record.data.retryWaitMs !== undefined,
      };
    case 'model-responded':
      return {
        type: 'model-call-finish',
        runId,
        taskId: record.taskId,
        loop: record.data.loop,
        finishReason: record.data.finishReason,
        usage: record.data.usage,
        toolCalls: record.data.message.toolCalls?.length ?? 0,
        ...(record.data.response ? { response: record.data.response } : {}),
        ...(record.data.model ? { model: record.data.model } : {}),
        ...(record.data.context ? { context: record.data.context } : {}),
      };
    case 'model-fallback':
      return {
        type: 'model-fallback',
        runId,
        taskId: record.taskId,
        loop: record.data.loop,
        from: record.data.from,
        to: record.data.to,
        failure: record.data.failure,
      };
    case 'attempt-started': {
      const call = state?.operations.get(record.data.operationId)?.call;
      return {
        type: 'tool-call-start',
        runId,
        taskId: record.taskId,
        operationId: record.data.operationId,
        toolName: toolNameOf(state, record.data.operationId),
        ...(call?.id ? { toolCallId: call.id } : {}),
        attempt: record.data.attempt,
        arguments: call?.arguments,
      };
    }
    case 'attempt-failed':
      return {
        type: 'tool-call-fail',
        runId,
        taskId: record.taskId,
        operationId: record.data.operationId,
        toolName: toolNameOf(state, record.data.operationId),
        attempt: record.data.attempt,
        failure: record.data.failure,
        retryAt: record.data.retryAt,
      };
    case 'operation-finished': {
      const event: RunEventData = {
        type: 'tool-call-finish',
        runId,
        taskId: record.taskId,
        operationId: record.data.operationId,
        toolName: toolNameOf(state, record.data.operationId),
        status: record.data.status,
        content: record.data.content,
      };
      if (record.data.failure) event.failure = record.data.failure;
      return event;
    }
    case 'batch-joined':
      return { type: 'batch-join', runId, taskId: record.taskId, loop: record.data.loop };
    case 'approval-requested':
      return {
        type: 'approval-request',
        runId,
        taskId: record.taskId,
        approvalId: record.data.approvalId,
        toolName: record.data.toolName,
        arguments: record.data.arguments,
        reason: record.data.reason,
      };
    case 'approval-decided':
      return {
        type: 'approval-decide',
        runId,
        approvalId: record.data.approvalId,
        approved: record.data.approved,
        decidedBy: record.data.decidedBy,
      };
    case 'elicitation-requested': {
      const { elicitationId, operationId, toolName, server, message, mode, requestedSchema, url } = record.data;
      return {
        ...{
          type: 'elicitation-request',
          runId,
          taskId: record.taskId,
          elicitationId,
          operationId,
          toolName,
          server,
          message,
          mode,
        },
        ...(requestedSchema ? { requestedSchema } : {}),
        ...(url ? { url } : {}),
      };
    }
    case 'elicitation-answered':
      return {
        type: 'elicitation-answer',
        runId,
        elicitationId: record.data.elicitationId,
        action: record.data.action,
        answeredBy: record.data.answeredBy,
      };
    case 'supplement-accepted':
      return { type: 'supplement-accept', runId, supplementId: record.data.supplementId };
    case 'supplement-consumed':
      return { type: 'supplement-consume', runId, taskId: record.taskId, supplementIds: record.data.supplementIds };
    case 'task-created':
      return { type: 'task-start', runId, taskId: record.taskId, role: record.data.role, parentTaskId: record.data.parentTaskId };
    case 'task-finished': {
      const event: RunEventData = {
        type: 'task-finish',
        runId,
        taskId: record.taskId,
        role: state?.tasks.get(record.taskId)?.role ?? 'unknown',
        status: record.data.status,
      };
      if (record.data.failure) event.failure = record.data.failure;
      return event;
    }
    case 'answer-rejected':
      return { type: 'answer-reject', runId, taskId: record.taskId, loop: record.data.loop };
    case 'run-finished':
      return { type: 'run-finish', runId, result: record.data };
    default:
      return undefined;
  }
}

function toolNameOf(state: AgentRunState | undefined, operationId: string): string {
  return state?.operations.get(operationId)?.call.name ?? 'unknown';
}

/**
 * Turns a run's journal into its events, entry by entry, in any process: the one projection both
 * the live run and `RunClient` use, so that a follower sees what the owner's `run.events()` saw.
 * Feed it every entry from the first, in order; it keeps the state the events need.
 */
export class AgentEventProjector {
  private readonly runId: string;
  private readonly sessionId: string;
  private readonly pending: JournalEntry[] = [];
  private state: AgentRunState | undefined;

  constructor(runId: string, sessionId: string) {
    this.runId = runId;
    this.sessionId = sessionId;
  }

  /** Applies the entry and returns the event it announces, if any. */
  project(entry: JournalEntry): RunEvent | undefined {
    if (!this.state) {
      if (entry.type === 'run-started') {
        this.state = foldAgentJournal(this.runId, [...this.pending, entry]);
      } else {
        this.pending.push(entry);
      }
    } else {
      applyAgentEntry(this.state, entry);
    }
    return eventOfEntry({ runId: this.runId, sessionId: this.sessionId }, this.state, entry);
  }
}
