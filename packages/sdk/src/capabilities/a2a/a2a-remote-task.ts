import { abortableSleep } from '../../core/abortable-sleep.js';
import { A2AConnectionError, A2ARequestError } from './a2a-errors.js';
import { callJsonRpc, type JsonRpcEndpoint, streamJsonRpc } from './a2a-json-rpc.js';
import { type A2AStreamResponse, type A2ATask, INTERRUPTED_STATES, TERMINAL_STATES } from './a2a-types.js';

/** Whether the client must act (or can only read) now: a terminal or interrupted state. */
export function isSettled(task: A2ATask): boolean {
  return TERMINAL_STATES.has(task.status?.state) || INTERRUPTED_STATES.has(task.status?.state);
}

/** `GetTask` with its history (for reconciliation) and artifacts. */
export function getTask(endpoint: JsonRpcEndpoint, taskId: string, signal: AbortSignal): Promise<A2ATask> {
  return callJsonRpc<A2ATask>(endpoint, 'GetTask', { id: taskId }, signal);
}

/**
 * Finds the task a message created, by the message's context (`ListTasks`, A2A 1.0) and, when the
 * server keeps history, its message id: how a send whose answer was lost is reconciled before it
 * could be called `unknown`. `undefined` when the context holds no task.
 */
export async function findTaskOfMessage(
  endpoint: JsonRpcEndpoint,
  contextId: string,
  messageId: string,
  signal: AbortSignal,
): Promise<A2ATask | undefined> {
  const listed = await callJsonRpc<{ tasks?: A2ATask[] }>(endpoint, 'ListTasks', { contextId, historyLength: 100 }, signal);
  const tasks = (listed.tasks ?? []).filter((task) => task.contextId === contextId);
  const byMessage = tasks.find((task) => task.history?.some((message) => message.messageId === messageId));
  if (byMessage) return byMessage;
  // The context is this call's own: one task in it is the message's, even without history.
  return tasks.length === 1 ? tasks[0] : undefined;
}

/** How a wait for a remote task behaves. */
export interface FollowOptions {
  /** Use `SubscribeToTask` (the card declares `capabilities.streaming`); else poll `GetTask`. */
  streaming: boolean;
  /** Poll interval, and the pause before re-subscribing after a cut stream. */
  pollMs: number;
}

/**
 * Waits until the remote task is terminal or interrupted and returns its snapshot (`GetTask`, with
 * artifacts). Streams with `SubscribeToTask` when the agent streams (its first event is the
 * current task, so nothing between the read and the subscription is missed), and reads the task
 * again after a cut stream; otherwise polls. Never sends a message: this is how a takeover
 * continues a call. Transport failures are retried here until the caller's signal ends the
 * wait (attempt timeout, stop, deadline).
 */
export async function followTask(
  endpoint: JsonRpcEndpoint,
  taskId: string,
  options: FollowOptions,
  signal: AbortSignal,
): Promise<A2ATask> {
  for (;;) {
    try {
      const task = await getTask(endpoint, taskId, signal);
      if (isSettled(task)) return task;
      if (options.streaming && (await subscribeUntilSettled(endpoint, taskId, signal))) continue;
    } catch (error) {
      if (!A2AConnectionError.isInstance(error)) throw error;
    }
    await abortableSleep(options.pollMs, signal);
  }
}

/** Follows the task's stream until a terminal or interrupted state; `true` when one was seen. */
async function subscribeUntilSettled(endpoint: JsonRpcEndpoint, taskId: string, signal: AbortSignal): Promise<boolean> {
  try {
    for await (const event of streamJsonRpc<A2AStreamResponse>(endpoint, 'SubscribeToTask', { id: taskId }, signal)) {
      const state = event.task?.status?.state ?? event.statusUpdate?.status?.state;
      if (state && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) return true;
    }
    return false;
  } catch (error) {
    // A task that became terminal between the read and the subscription cannot be subscribed to.
    if (A2ARequestError.isInstance(error) && error.a2aCode === -32004) return true;
    if (A2AConnectionError.isInstance(error)) return false;
    throw error;
  }
}
