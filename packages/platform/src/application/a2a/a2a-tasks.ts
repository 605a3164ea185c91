import { findRun } from '../../adapters/database/repositories/run-repository.js';
import type { AppRow, RunRow } from '../../adapters/database/schema.js';
import { invalidParams, taskNotFound, unsupportedOperation } from '../../domain/a2a-errors.js';
import {
  type A2AMessage,
  type A2APart,
  type A2ATask,
  foldEvent,
  initialProjection,
  isTerminalState,
  type TaskFrame,
  type TaskProjection,
  taskOf,
} from '../../domain/a2a-task.js';
import { NotFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { assertAppRunnable, startAppRun } from '../runs/create-run.js';
import { decideRunApproval, supplementRun } from '../runs/run-service.js';

/**
 * A2A tasks over the run machinery (issue 32): a task is a run (task id = run id, context id =
 * session id), read and changed only through the existing use cases (start, supplement, decide,
 * stop) and the SDK store. Nothing here stores a task: its state is a fold over the run's journal.
 */

/** Who calls, as the JSON-RPC binding authorised them for the app. */
export interface A2aCaller {
  actor: string;
  /** An app key sees only the tasks it started (D-P6); editors see all of the app's. */
  seesAllSessions: boolean;
}

/** The idempotency key of an A2A message: its `messageId`, so that a repeated send answers the first task. */
export function messageKeyOf(messageId: string): string {
  return `a2a:${messageId}`;
}

/** The run of a task, if it is a run of this app the caller may see; else `TaskNotFoundError`. */
export async function runOfTask(
  context: Pick<PlatformContext, 'database'>,
  app: AppRow,
  caller: A2aCaller,
  taskId: string,
): Promise<RunRow> {
  const run = await findRun(context.database, taskId);
  if (!run || run.app_id !== app.id || (!caller.seesAllSessions && run.requested_by !== caller.actor)) throw taskNotFound(taskId);
  return run;
}

/** Folds the run's whole journal: the task's state now, and the sequence it is at. */
export async function projectRun(context: Pick<PlatformContext, 'runClient'>, runId: string): Promise<TaskProjection> {
  let projection = initialProjection();
  for (const event of await context.runClient.readEvents(runId)) projection = foldEvent(projection, event);
  return projection;
}

/** The frame a task is rendered in: ids, the time, and the message that started it (from its idempotency key). */
export async function frameOf(context: Pick<PlatformContext, 'database' | 'runClient' | 'now'>, run: RunRow): Promise<TaskFrame> {
  const key = await context.database
    .selectFrom('idempotency_keys')
    .select('key')
    .where('run_id', '=', run.id)
    .where('key', 'like', 'a2a:%')
    .executeTakeFirst();
  const frame: TaskFrame = { taskId: run.id, contextId: run.session_id, timestamp: context.now().toISOString() };
  if (!key) return frame;
  const input = (await context.runClient.describeRun(run.id)).input;
  const part: A2APart = typeof input === 'string' ? { text: input } : { data: input ?? null };
  return {
    ...frame,
    request: { messageId: key.key.slice(4), role: 'ROLE_USER', parts: [part], taskId: run.id, contextId: run.session_id },
  };
}

/** `GetTask`: the task as the journal says now. */
export async function readA2aTask(
  context: Pick<PlatformContext, 'database' | 'runClient' | 'now'>,
  run: RunRow,
  historyLength?: number,
): Promise<A2ATask> {
  const projection = await projectRun(context, run.id);
  return taskOf(projection, await frameOf(context, run), historyLength);
}

/** The text of a message: its text parts, data parts as JSON; files are refused (the platform takes none yet). */
function textOf(parts: readonly A2APart[]): string {
  return parts
    .map((part) => {
      if (typeof part.text === 'string') return part.text;
      if (part.data !== undefined) return JSON.stringify(part.data);
      throw invalidParams('File parts (url, raw) are not accepted: send text or data parts.');
    })
    .join('\n');
}

/** A data part that decides an approval: `{ approvalId?, approved, reason? }`. */
interface DecisionPart {
  approvalId?: string;
  approved: boolean;
  reason?: string;
}

function decisionOf(part: A2APart): DecisionPart | undefined {
  const data = part.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object' || typeof data.approved !== 'boolean') return undefined;
  return {
    approved: data.approved,
    ...(typeof data.approvalId === 'string' ? { approvalId: data.approvalId } : {}),
    ...(typeof data.reason === 'string' ? { reason: data.reason } : {}),
  };
}

/**
 * A message to an existing task (A2A: same `taskId`): a data part `{ approvalId?, approved }`
 * decides a pending approval (the caller holds the app's key, the same authority that may decide
 * it over REST); any other content is a supplement of the run (S-1). A finished task refuses it.
 */
async function continueTask(context: PlatformContext, app: AppRow, caller: A2aCaller, message: A2AMessage): Promise<string> {
  const run = await runOfTask(context, app, caller, message.taskId as string);
  if (message.contextId !== undefined && message.contextId !== run.session_id)
    throw invalidParams('The contextId is not the context of this task.', { taskId: run.id, contextId: message.contextId });
  const projection = await projectRun(context, run.id);
  if (isTerminalState(projection.state))
    throw unsupportedOperation(`Task ${run.id} has ended (${projection.state}); start a new task in its context.`, {
      taskId: run.id,
    });
  const rest: A2APart[] = [];
  for (const part of message.parts) {
    const decision = decisionOf(part);
    if (!decision) {
      rest.push(part);
      continue;
    }
    const approvalId = decision.approvalId ?? (projection.pending.length === 1 ? projection.pending[0]?.approvalId : undefined);
    if (!approvalId || !projection.pending.some((item) => item.approvalId === approvalId))
      throw invalidParams('The task waits for no such approval.', { pending: projection.pending.map((item) => item.approvalId) });
    await decideRunApproval(context, run.id, {
      approvalId,
      approved: decision.approved,
      decidedBy: caller.actor,
      reason: decision.reason,
    });
  }
  const text = rest.length > 0 ? textOf(rest) : '';
  if (text.trim() !== '') await supplementRun(context, app, run.id, text);
  else if (rest.length === message.parts.length) throw invalidParams('The message has no content.');
  return run.id;
}

/** The input of a new run from a message: text for an agent, the first object data part for a workflow. */
function inputOf(app: AppRow, parts: readonly A2APart[]): string | Record<string, unknown> {
  if (app.kind === 'workflow') {
    const data = parts.find((part) => part.data !== null && typeof part.data === 'object' && !Array.isArray(part.data));
    if (!data) throw invalidParams('A workflow takes a data part: an object with the values of its state fields.');
    return data.data as Record<string, unknown>;
  }
  const text = textOf(parts);
  if (text.trim() === '') throw invalidParams('The message has no text.');
  return text;
}

/** What a client-minted context id may look like: it becomes a session id as it is. */
const clientContextId = /^[A-Za-z0-9][\w.:-]{0,199}$/;

/**
 * A context id the client minted (A2A §3.4: a server may accept one; the SDK's own `a2aAgent`
 * mints one per call) that is no session yet becomes a new session of the app with that id, so
 * the client's later messages and `ListTasks { contextId }` find its tasks. A context that is
 * already a session is left to `startAppRun`, which refuses one of another app or caller.
 */
async function openClientContext(context: PlatformContext, app: AppRow, caller: A2aCaller, contextId: string): Promise<void> {
  if (!clientContextId.test(contextId))
    throw invalidParams('A contextId is 1 to 200 letters, digits and . _ : - (starting with a letter or digit).');
  assertAppRunnable(app);
  const at = context.now().toISOString();
  await context.database
    .insertInto('sessions')
    .values({
      id: contextId,
      space_id: app.space_id,
      app_id: app.id,
      kind: 'agent',
      created_by: caller.actor,
      created_at: at,
      last_run_at: at,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

/**
 * `SendMessage`: a message with a `taskId` continues that task; otherwise it starts a run of the
 * app (in the session `contextId` when given — a new one when the client minted it — else a new one), with the `messageId` as its
 * idempotency key, so the same message sent twice (a client that lost the answer) is one task.
 * Answers the task id (the run id).
 */
export async function sendA2aMessage(
  context: PlatformContext,
  app: AppRow,
  caller: A2aCaller,
  message: A2AMessage,
): Promise<string> {
  if (!message || typeof message.messageId !== 'string' || message.messageId === '' || !Array.isArray(message.parts))
    throw invalidParams('params.message needs a messageId and parts.');
  if (message.taskId !== undefined && message.taskId !== '') return continueTask(context, app, caller, message);
  const sessionId = message.contextId || undefined;
  if (sessionId !== undefined) await openClientContext(context, app, caller, sessionId);
  try {
    const started = await startAppRun(
      context,
      app,
      caller.actor,
      { input: inputOf(app, message.parts), sessionId },
      messageKeyOf(message.messageId),
      { seesAllSessions: caller.seesAllSessions },
    );
    return started.runId;
  } catch (error) {
    // A context of another app or caller: refused, never replaced (A2A §3.4).
    if (error instanceof NotFoundError && sessionId !== undefined)
      throw invalidParams('The contextId is not a context of this agent.', { contextId: sessionId });
    throw error;
  }
}
