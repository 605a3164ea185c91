import type { HostedRunEvent } from '@agentloom/sdk';

/**
 * A2A 1.0 as the platform publishes it (N-13): the wire shapes of the JSON-RPC binding (ProtoJSON:
 * camelCase, `TASK_STATE_*` / `ROLE_*` enum names, parts without `kind`) and the projection of a
 * run's journal onto an A2A task. There is no task store of its own: a task is a fold over the
 * run's journal events, so `GetTask`, a stream and a re-subscription all read the same truth, and
 * every projected event carries the journal sequence it came from (`agentloom.seq`).
 */

/** The A2A protocol version the platform speaks (the `protocolVersion` of its card's interface). */
export const a2aProtocolVersion = '1.0';
/** The extension that resumes a stream after a journal sequence (`metadata.afterSeq` on `SubscribeToTask`). */
export const a2aResumeExtension = 'https://agentloom.dev/a2a/extensions/resume/v1';
/** The metadata key of the journal sequence on every projected event. */
export const a2aSequenceKey = 'agentloom.seq';

export type A2ATaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_REJECTED';

const terminalStates: ReadonlySet<A2ATaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** Whether a task in this state never changes again. */
export function isTerminalState(state: A2ATaskState): boolean {
  return terminalStates.has(state);
}

/** Whether a task in this state waits for the client: the end of a blocking send and of a stream. */
export function isSettledState(state: A2ATaskState): boolean {
  return isTerminalState(state) || state === 'TASK_STATE_INPUT_REQUIRED';
}

export interface A2APart {
  text?: string;
  data?: unknown;
  url?: string;
  raw?: string;
  mediaType?: string;
  filename?: string;
  metadata?: Record<string, unknown>;
}

export interface A2AMessage {
  messageId: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: A2APart[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface A2ATaskStatus {
  state: A2ATaskState;
  timestamp: string;
  message?: A2AMessage;
}

export interface A2AArtifact {
  artifactId: string;
  name?: string;
  parts: A2APart[];
}

export interface A2ATask {
  id: string;
  contextId: string;
  status: A2ATaskStatus;
  artifacts?: A2AArtifact[];
  history?: A2AMessage[];
  metadata: Record<string, unknown>;
}

/** One event of a stream: exactly one member is set. */
export type A2AStreamResponse =
  | { task: A2ATask }
  | { statusUpdate: { taskId: string; contextId: string; status: A2ATaskStatus; metadata: Record<string, unknown> } }
  | {
      artifactUpdate: {
        taskId: string;
        contextId: string;
        artifact: A2AArtifact;
        append: boolean;
        lastChunk: boolean;
        metadata: Record<string, unknown>;
      };
    };

/** An approval the run waits for: what an `INPUT_REQUIRED` status describes and a reply may decide. */
export interface PendingApproval {
  approvalId: string;
  toolName: string;
  arguments: unknown;
  reason: string;
}

/** The task's state after some journal events: the fold's accumulator. */
export interface TaskProjection {
  state: A2ATaskState;
  /** The sequence of the last journal event folded in (0: none). */
  sequence: number;
  pending: PendingApproval[];
  /** The run's final output, once it succeeded. */
  output?: unknown;
  /** Why a failed, rejected or canceled run ended. */
  reason?: string;
}

/** A task before its run left the queue. */
export function initialProjection(): TaskProjection {
  return { state: 'TASK_STATE_SUBMITTED', sequence: 0, pending: [] };
}

interface EndResult {
  status: string;
  output?: unknown;
  reason?: string;
}

/** The A2A state of a finished run: one to one, with a run a guardrail refused (`blocked`) as `REJECTED`. */
function endStateOf(result: EndResult): A2ATaskState {
  if (result.status === 'succeeded') return 'TASK_STATE_COMPLETED';
  if (result.status === 'stopped') return 'TASK_STATE_CANCELED';
  if (result.status === 'interrupted') return 'TASK_STATE_INPUT_REQUIRED';
  return result.reason === 'blocked' ? 'TASK_STATE_REJECTED' : 'TASK_STATE_FAILED';
}

/** Folds one journal event into the projection (pure: answers a new projection). */
export function foldEvent(projection: TaskProjection, event: HostedRunEvent): TaskProjection {
  const next: TaskProjection = { ...projection, sequence: event.sequence };
  if (isTerminalState(projection.state)) return next;
  switch (event.type) {
    case 'approval-request':
      next.pending = [
        ...projection.pending,
        { approvalId: event.approvalId, toolName: event.toolName, arguments: event.arguments, reason: event.reason },
      ];
      next.state = 'TASK_STATE_INPUT_REQUIRED';
      return next;
    case 'approval-decide':
      next.pending = projection.pending.filter((approval) => approval.approvalId !== event.approvalId);
      next.state = next.pending.length > 0 ? 'TASK_STATE_INPUT_REQUIRED' : 'TASK_STATE_WORKING';
      return next;
    case 'workflow-interrupt':
      next.state = 'TASK_STATE_INPUT_REQUIRED';
      return next;
    case 'run-finish':
    case 'workflow-finish': {
      const result = event.result as EndResult;
      next.state = endStateOf(result);
      next.pending = [];
      if (result.status === 'succeeded') next.output = result.output;
      if (result.reason !== undefined) next.reason = result.reason;
      return next;
    }
    case 'stop-request':
    case 'supplement-accept':
      // Asked of the run, not done by it: a queued task stays SUBMITTED until a worker takes it.
      return next;
    default:
      // Any other event is work: a queued run started, or an answered question let it go on.
      if (projection.pending.length === 0) next.state = 'TASK_STATE_WORKING';
      return next;
  }
}

/** What a projection is rendered with: the run's ids, the time and the first user message. */
export interface TaskFrame {
  taskId: string;
  contextId: string;
  timestamp: string;
  /** The message that started the task (its id is the send's idempotency key), when known. */
  request?: A2AMessage;
}

/** The status message of a state: what an `INPUT_REQUIRED` task waits for, why a task failed. */
function statusMessageOf(projection: TaskProjection, frame: TaskFrame): A2AMessage | undefined {
  const base = { role: 'ROLE_AGENT' as const, taskId: frame.taskId, contextId: frame.contextId };
  if (projection.state === 'TASK_STATE_INPUT_REQUIRED' && projection.pending.length > 0)
    return {
      ...base,
      messageId: `${frame.taskId}:input:${projection.sequence}`,
      parts: [
        {
          text: `Approve or deny: ${projection.pending.map((item) => `${item.toolName} (${item.reason})`).join(', ')}. Reply with a data part { "approvalId", "approved" }.`,
        },
        { data: { approvals: projection.pending } },
      ],
    };
  if (projection.reason !== undefined && projection.state !== 'TASK_STATE_COMPLETED')
    return { ...base, messageId: `${frame.taskId}:end`, parts: [{ text: projection.reason }] };
  return undefined;
}

/** The artifact of a succeeded run: its output as text (agent) or as data (workflow output fields). */
export function outputArtifactOf(output: unknown): A2AArtifact {
  const part: A2APart = typeof output === 'string' ? { text: output } : { data: output ?? null };
  return { artifactId: 'output', name: 'output', parts: [part] };
}

/** Renders a projection as an A2A task (`GetTask`, the first event of a stream). */
export function taskOf(projection: TaskProjection, frame: TaskFrame, historyLength?: number): A2ATask {
  const message = statusMessageOf(projection, frame);
  const task: A2ATask = {
    id: frame.taskId,
    contextId: frame.contextId,
    status: { state: projection.state, timestamp: frame.timestamp, ...(message ? { message } : {}) },
    metadata: { [a2aSequenceKey]: projection.sequence },
  };
  if (projection.state === 'TASK_STATE_COMPLETED') task.artifacts = [outputArtifactOf(projection.output)];
  if (frame.request && historyLength !== 0) task.history = [frame.request];
  return task;
}

/**
 * The stream events one journal event yields, given the projection before it: nothing when the
 * task's state did not change; a status update when it did; the output artifact first when the
 * run succeeded. Answers the projection after the event too.
 */
export function streamEventsOf(
  before: TaskProjection,
  event: HostedRunEvent,
  frame: TaskFrame,
): { after: TaskProjection; events: A2AStreamResponse[] } {
  const after = foldEvent(before, event);
  const changed = after.state !== before.state || after.pending.length !== before.pending.length;
  if (!changed) return { after, events: [] };
  const metadata = { [a2aSequenceKey]: event.sequence };
  const ids = { taskId: frame.taskId, contextId: frame.contextId };
  const events: A2AStreamResponse[] = [];
  if (after.state === 'TASK_STATE_COMPLETED')
    events.push({
      artifactUpdate: { ...ids, artifact: outputArtifactOf(after.output), append: false, lastChunk: true, metadata },
    });
  const message = statusMessageOf(after, frame);
  events.push({
    statusUpdate: {
      ...ids,
      status: { state: after.state, timestamp: frame.timestamp, ...(message ? { message } : {}) },
      metadata,
    },
  });
  return { after, events };
}
