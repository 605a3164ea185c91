import { createHash } from 'node:crypto';
import { abortableSleep } from '../../core/abortable-sleep.js';
import type { CallJournal, ToolExecutionContext } from '../tools/tool.js';
import {
  A2AAuthRequiredError,
  A2AConnectionError,
  A2AInputRequiredError,
  A2AOutcomeUnknownError,
  A2ARequestError,
  A2ATaskFailedError,
} from './a2a-errors.js';
import { callJsonRpc, type JsonRpcEndpoint } from './a2a-json-rpc.js';
import { type FollowOptions, findTaskOfMessage, followTask, getTask } from './a2a-remote-task.js';
import { type A2AMessage, type A2APart, type A2ATask, textOfParts } from './a2a-types.js';

/** A question of a remote task in `TASK_STATE_INPUT_REQUIRED`, as the run is asked it. */
export interface A2AInputRequest {
  type: 'a2a-input-required';
  /** The remote agent's name. */
  agent: string;
  /** The remote task that waits. */
  taskId: string;
  contextId: string;
  /** The agent's question (its status message as text). */
  question: string;
  /** The run and call that delegated the task. */
  subject: { runId: string; sessionId: string; operationId: string };
}

/**
 * Answers a remote agent's question in an agent run (a workflow node pauses the workflow instead).
 * Return the answer (text, or JSON sent as a data part), or `undefined` to refuse: the call then
 * fails with `A2AInputRequiredError`. Honour `signal` (attempt timeout, stop, deadline).
 */
export type A2AInputPort = (request: A2AInputRequest, signal: AbortSignal) => Promise<unknown> | unknown;

/** What one call needs besides its journal: where the agent is and how to wait for it. */
export interface A2ACallSetup {
  endpoint: JsonRpcEndpoint;
  follow: FollowOptions;
  onInputRequired: A2AInputPort | undefined;
}

/** The journaled intent of the first send: written before the request leaves. */
interface SendIntent {
  messageId: string;
  contextId: string;
}

/** The remote task the call is bound to: written as soon as it is known, before any wait. */
interface BoundTask {
  taskId: string;
  contextId: string;
}

const SEND = 'a2a.send';
const TASK = 'a2a.task';
const REPLIES = 'a2a.replies';
const ANSWER = 'a2a.answer';

/** A stable id for a message of this call: the same on every attempt, owner and process. */
function stableId(kind: string, context: ToolExecutionContext, extra = ''): string {
  const hash = createHash('sha256').update(`${context.runId}\n${context.operationId}\n${kind}\n${extra}`).digest('hex');
  return `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}`;
}

/** A journal kept in memory, for a call made outside any run (a direct `execute`): not durable. */
function memoryJournal(): CallJournal {
  const notes = new Map<string, unknown>();
  return { read: (key) => notes.get(key), write: async (key, value) => void notes.set(key, value) };
}

function userMessage(messageId: string, content: unknown, ids: { contextId: string; taskId?: string }): A2AMessage {
  const part: A2APart = typeof content === 'string' ? { text: content } : { data: content, mediaType: 'application/json' };
  return { messageId, contextId: ids.contextId, ...(ids.taskId ? { taskId: ids.taskId } : {}), role: 'ROLE_USER', parts: [part] };
}

/**
 * Runs one delegation to a remote A2A agent durably (X-7, N-13):
 * 1. the message id and the call's own context id are journaled before `SendMessage` leaves;
 * 2. the task id the agent returns is journaled before waiting;
 * 3. the wait follows the task (`SubscribeToTask`, or `GetTask` polls) until it is terminal or
 *    interrupted; a takeover enters here at step 3 and never sends the message again;
 * 4. a send whose answer was lost (here or in a dead process) is reconciled with `ListTasks` by
 *    the context id before it is called unknown (`A2AOutcomeUnknownError`, never retried);
 * 5. `INPUT_REQUIRED` asks the run (a workflow pauses on it; an agent run asks `onInputRequired`
 *    or, without it, the run's approvals), and the answer is sent as a follow-up message,
 *    journaled the same way; a send the agent refused had no effect and a retry sends afresh;
 *    `AUTH_REQUIRED`
 *    is `A2AAuthRequiredError`; failed, rejected and canceled tasks are `A2ATaskFailedError`.
 * Returns the completed task's artifacts as text (else its status message).
 */
export async function runA2ACall(setup: A2ACallSetup, message: unknown, context: ToolExecutionContext): Promise<string> {
  const journal = context.callJournal ?? memoryJournal();
  const { endpoint } = setup;
  const signal = context.signal;
  const answered = journal.read(ANSWER);
  if (typeof answered === 'string') return answered;
  let bound = journal.read(TASK) as BoundTask | undefined;
  if (!bound) {
    // A send the agent refused had no effect: a later attempt sends afresh, with its own ids.
    const saved = journal.read(SEND) as (SendIntent & { refused?: true }) | undefined;
    const known = saved?.refused ? undefined : saved;
    const attempt = String(context.attempt);
    const intent = known ?? {
      messageId: stableId('send', context, attempt),
      contextId: `agentloom-${stableId('context', context, attempt)}`,
    };
    let task: A2ATask | undefined;
    if (known) {
      // An earlier execution journaled the intent and died before the task id: reconcile.
      task = await reconcileSend(endpoint, intent, signal, 'the process that sent it stopped before saving the answer');
    } else {
      await journal.write(SEND, intent);
      let result: A2ATask | { answer: string };
      try {
        result = await send(endpoint, intent, message, signal);
      } catch (error) {
        if (A2ARequestError.isInstance(error)) await journal.write(SEND, { ...intent, refused: true });
        throw error;
      }
      if ('answer' in result) {
        // A direct answer creates no task: it is the call's result, kept for a re-execution.
        await journal.write(ANSWER, result.answer);
        return result.answer;
      }
      task = result;
    }
    bound = { taskId: task.id, contextId: task.contextId };
    await journal.write(TASK, bound);
  }
  const replies = (journal.read(REPLIES) as string[] | undefined) ?? [];
  // A workflow numbers its pauses by their order in one execution: answered rounds count first.
  if (context.requestInput) for (const _ of replies) context.requestInput({ type: 'a2a-input-required', replayed: true });
  for (;;) {
    const task = await followTask(endpoint, bound.taskId, setup.follow, signal);
    const state = task.status.state;
    const detail = textOfParts(task.status.message?.parts);
    if (state === 'TASK_STATE_COMPLETED') return resultText(task);
    if (state === 'TASK_STATE_AUTH_REQUIRED') throw new A2AAuthRequiredError(endpoint.agent, task.id, detail);
    if (state !== 'TASK_STATE_INPUT_REQUIRED') throw new A2ATaskFailedError(endpoint.agent, task.id, state, detail);
    const round = `a2a.reply.${task.status.message?.messageId || task.status.timestamp || replies.length}`;
    const sent = journal.read(round) as { messageId: string } | undefined;
    if (sent) {
      // This answer was journaled before a crash or a lost reply: was it received?
      if (!(await replyReceived(endpoint, bound.taskId, sent.messageId, signal)))
        throw new A2AOutcomeUnknownError(endpoint.agent, sent.messageId, 'the answer to an input request may not have arrived');
      await abortableSleep(setup.follow.pollMs, signal);
      continue;
    }
    const request: A2AInputRequest = {
      type: 'a2a-input-required',
      agent: endpoint.agent,
      taskId: task.id,
      contextId: task.contextId,
      question: detail,
      subject: { runId: context.runId, sessionId: context.sessionId, operationId: context.operationId },
    };
    // Asking is not caught: a workflow's pause and a run's stop pass through to the engine.
    const answer = await ask(setup, context, request, round);
    if (answer === undefined) throw new A2AInputRequiredError(endpoint.agent, task.id, detail);
    const reply = { messageId: stableId('reply', context, round) };
    await journal.write(round, reply);
    replies.push(round);
    await journal.write(REPLIES, replies);
    try {
      await callJsonRpc(
        endpoint,
        'SendMessage',
        {
          message: userMessage(reply.messageId, answer, { contextId: bound.contextId, taskId: bound.taskId }),
          configuration: { returnImmediately: true },
        },
        signal,
      );
    } catch (error) {
      if (!A2AConnectionError.isInstance(error)) throw error;
      if (!(await replyReceived(endpoint, bound.taskId, reply.messageId, signal)))
        throw new A2AOutcomeUnknownError(endpoint.agent, reply.messageId, `the answer's send failed: ${error.message}`);
    }
  }
}

/**
 * Puts a remote question to the run: a workflow pauses (`requestInput`); in an agent run the
 * `onInputRequired` port answers if given, else the run's approvals do (an approval request whose
 * approval carries the answer as its reason, `yes` without one). `undefined`: unanswered.
 */
async function ask(
  setup: A2ACallSetup,
  context: ToolExecutionContext,
  request: A2AInputRequest,
  round: string,
): Promise<unknown> {
  if (context.requestInput) return context.requestInput(request);
  if (setup.onInputRequired) return setup.onInputRequired(request, context.signal);
  if (!context.requestApproval) return undefined;
  const decision = await context.requestApproval({
    key: round,
    reason: `The remote agent "${request.agent}" asks: ${request.question || '(no question given)'} — approve with your answer as the reason, or deny.`,
  });
  if (!decision.approved) return undefined;
  return decision.reason === undefined || decision.reason === '' ? 'yes' : decision.reason;
}

/** Sends the first message; a lost answer is reconciled before anything else happens. */
async function send(
  endpoint: JsonRpcEndpoint,
  intent: SendIntent,
  message: unknown,
  signal: AbortSignal,
): Promise<A2ATask | { answer: string }> {
  let result: { task?: A2ATask; message?: A2AMessage };
  try {
    result = await callJsonRpc(
      endpoint,
      'SendMessage',
      {
        message: userMessage(intent.messageId, message, { contextId: intent.contextId }),
        configuration: { returnImmediately: true },
      },
      signal,
    );
  } catch (error) {
    // A refusal had no effect and is thrown as it is; a transport failure leaves it unknown.
    if (!A2AConnectionError.isInstance(error)) throw error;
    return reconcileSend(endpoint, intent, signal, `the send failed: ${error.message}`);
  }
  if (result.task) return result.task;
  if (result.message) return { answer: textOfParts(result.message.parts) };
  throw new A2AOutcomeUnknownError(endpoint.agent, intent.messageId, 'the answer holds neither a task nor a message');
}

/**
 * Finds the task a message with a lost answer created (`ListTasks` by the call's own context);
 * when none is found its outcome is unknown: the message is never sent again.
 */
async function reconcileSend(endpoint: JsonRpcEndpoint, intent: SendIntent, signal: AbortSignal, why: string): Promise<A2ATask> {
  let found: A2ATask | undefined;
  try {
    found = await findTaskOfMessage(endpoint, intent.contextId, intent.messageId, signal);
  } catch (error) {
    throw new A2AOutcomeUnknownError(endpoint.agent, intent.messageId, `${why}; ListTasks failed: ${(error as Error).message}`);
  }
  if (!found)
    throw new A2AOutcomeUnknownError(endpoint.agent, intent.messageId, `${why}; ListTasks finds no task in its context`);
  return found;
}

/** Whether the task's history holds the message (how a follow-up with a lost answer is reconciled). */
async function replyReceived(
  endpoint: JsonRpcEndpoint,
  taskId: string,
  messageId: string,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const task = await getTask(endpoint, taskId, signal);
    return task.history?.some((entry) => entry.messageId === messageId) ?? false;
  } catch {
    return false;
  }
}

/** The result the caller reads: the artifacts' text, else the final status message. */
function resultText(task: A2ATask): string {
  const artifacts = (task.artifacts ?? []).map((artifact) => textOfParts(artifact.parts)).filter((text) => text !== '');
  if (artifacts.length > 0) return artifacts.join('\n\n');
  return textOfParts(task.status.message?.parts);
}
