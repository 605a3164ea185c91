import type { AppRow, RunRow } from '../../adapters/database/schema.js';
import { A2AProtocolError, a2aErrorCodes, invalidParams } from '../../domain/a2a-errors.js';
import {
  type A2AStreamResponse,
  type A2ATask,
  type A2ATaskState,
  foldEvent,
  initialProjection,
  isSettledState,
  isTerminalState,
  streamEventsOf,
  type TaskProjection,
  taskOf,
} from '../../domain/a2a-task.js';
import type { PlatformContext } from '../context.js';
import { stopRun } from '../runs/stop-runs.js';
import { type A2aCaller, frameOf, projectRun, readA2aTask, runOfTask } from './a2a-tasks.js';

/** What following, cancelling and listing tasks read: the run index, the SDK store, the clock. */
type TaskContext = Pick<PlatformContext, 'database' | 'runClient' | 'runStore' | 'now'>;

/**
 * A task's stream, read from its run's journal (the only event log: no second copy). The first
 * event is the task as of sequence `afterSequence` (the A2A resume extension's cursor; default:
 * the journal's end now); then one status update (and, on success, the output artifact first) per
 * journal event after it that changes the task, each with its sequence in `metadata`, so a client
 * that reconnects after any event gets the rest with no gap and no duplicate — across a server
 * restart or a worker takeover alike. The stream ends once the task is terminal or waits for
 * input, after what the journal already held has been replayed, or when `signal` aborts.
 */
export async function* streamA2aTask(
  context: TaskContext,
  run: RunRow,
  options: { afterSequence?: number | undefined; signal: AbortSignal; historyLength?: number | undefined },
): AsyncGenerator<A2AStreamResponse, void, undefined> {
  const frame = await frameOf(context, run);
  const cursor = options.afterSequence ?? Number.POSITIVE_INFINITY;
  let projection: TaskProjection = initialProjection();
  const backlog = [];
  for (const event of await context.runClient.readEvents(run.id)) {
    if (event.sequence <= cursor) projection = foldEvent(projection, event);
    else backlog.push(event);
  }
  if (options.afterSequence !== undefined) projection = { ...projection, sequence: Math.max(projection.sequence, cursor) };
  yield { task: taskOf(projection, frame, options.historyLength) };
  for (const event of backlog) {
    const step = streamEventsOf(projection, event, { ...frame, timestamp: context.now().toISOString() });
    projection = step.after;
    yield* step.events;
  }
  if (isSettledState(projection.state)) return;
  for await (const event of context.runClient.follow(run.id, {
    afterSequence: projection.sequence,
    signal: options.signal,
  })) {
    const step = streamEventsOf(projection, event, { ...frame, timestamp: context.now().toISOString() });
    projection = step.after;
    yield* step.events;
    if (isSettledState(projection.state)) return;
  }
}

/**
 * Waits until the task is terminal or waits for input (a blocking `SendMessage`), following the
 * journal; answers its state then, or the state when `signal` aborted.
 */
export async function waitUntilSettled(
  context: Pick<PlatformContext, 'runClient'>,
  runId: string,
  signal: AbortSignal,
  settled: (state: A2ATaskState) => boolean = isSettledState,
): Promise<A2ATaskState> {
  let projection = await projectRun(context, runId);
  if (settled(projection.state)) return projection.state;
  for await (const event of context.runClient.follow(runId, { afterSequence: projection.sequence, signal })) {
    projection = foldEvent(projection, event);
    if (settled(projection.state)) break;
  }
  return projection.state;
}

/** How long `CancelTask` waits for the stop to land before answering the task as it is. */
const cancelWaitMs = 10_000;

/**
 * `CancelTask`: the durable stop of the run (D-P10), for a queued, running or orphaned run alike;
 * a task already ended is `TaskNotCancelableError`. Waits briefly for the run to end, so the usual
 * answer is the `CANCELED` task; a run whose owner is slow to notice answers `WORKING` and ends later.
 */
export async function cancelA2aTask(context: TaskContext, app: AppRow, caller: A2aCaller, taskId: string): Promise<A2ATask> {
  const run = await runOfTask(context, app, caller, taskId);
  const projection = await projectRun(context, run.id);
  if (isTerminalState(projection.state))
    throw new A2AProtocolError(a2aErrorCodes.taskNotCancelable, `Task ${run.id} has ended (${projection.state}).`, {
      taskId: run.id,
      state: projection.state,
    });
  await stopRun(context, run.id, 'user', caller.actor);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), cancelWaitMs);
  try {
    await waitUntilSettled(context, run.id, abort.signal, isTerminalState);
  } finally {
    clearTimeout(timer);
  }
  return readA2aTask(context, run);
}

/** `ListTasks` parameters the platform reads (A2A 1.0 `ListTasksRequest`). */
export interface ListTasksParameters {
  contextId?: string;
  status?: string;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  includeArtifacts?: boolean;
}

/**
 * `ListTasks`: the app's tasks the caller may see (an app key: those it started), newest first,
 * optionally of one context; `status` filters the page after projection. The page token is the
 * offset of the next page.
 */
export async function listA2aTasks(context: TaskContext, app: AppRow, caller: A2aCaller, parameters: ListTasksParameters) {
  const pageSize = parameters.pageSize ?? 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw invalidParams('pageSize is 1 to 100.');
  const offset = parameters.pageToken ? Number(Buffer.from(parameters.pageToken, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParams('The pageToken cannot be read.');
  let query = context.database.selectFrom('runs').where('app_id', '=', app.id);
  if (!caller.seesAllSessions) query = query.where('requested_by', '=', caller.actor);
  if (parameters.contextId) query = query.where('session_id', '=', parameters.contextId);
  const total = await query.select((builder) => builder.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute();
  const tasks: A2ATask[] = [];
  for (const row of rows) {
    const task = await readA2aTask(context, row, parameters.historyLength);
    if (parameters.status && parameters.status !== task.status.state) continue;
    if (!parameters.includeArtifacts) delete task.artifacts;
    tasks.push(task);
  }
  const next = offset + rows.length;
  return {
    tasks,
    nextPageToken: next < Number(total.count) ? Buffer.from(String(next), 'utf8').toString('base64url') : '',
    pageSize,
    totalSize: Number(total.count),
  };
}
