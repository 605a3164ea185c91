import { ModelCallError } from '../../../core/errors/index.js';
import type { Failure } from '../../../core/failure.js';
import { RunInterrupt } from '../../run/run-control.js';
import type { AgentJournalRecord } from '../agent-journal.js';
import { type AgentRunState, ENTRY_TASK_ID, type OperationState, type TaskState } from '../agent-state.js';
import { operationResultEntries, passesGate, unparsedArgumentsFailure } from '../operation-runner.js';
import type { RunContext } from '../run-context.js';
import { subagentStart, subagentStop } from './delegation.js';
import { type ExecutorNode, resumeTaskIdOf } from './executor-node.js';

/** The prefix of the supplement ids that carry background results to the planner. */
const backgroundSupplementPrefix = 'background:';

/**
 * The background executor tasks of one run in this process (N-7): each is driven beside the
 * planner, on the run's shared loop budget, deadline and stop (the same `RunContext`). Its result
 * is committed with its `task-finished` as a supplement of the entry task, so the planner reads
 * it before its next model call (S-3) — "a later input" — exactly once. After a crash the
 * unfinished ones are started again from their journal-backed state (`resumeUnfinished`).
 */
export class BackgroundTasks {
  private readonly running = new Map<string, Promise<void>>();
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  /** Starts driving `taskId` unless it is already driven here. */
  start(context: RunContext, executor: ExecutorNode, taskId: string): void {
    if (this.running.has(taskId)) return;
    const driven = this.drive(context, executor, taskId).finally(() => this.running.delete(taskId));
    this.running.set(taskId, driven);
  }

  /** Starts every background task of the run that has not finished (a resumed run). */
  resumeUnfinished(context: RunContext, executors: ReadonlyMap<string, unknown>): void {
    for (const task of context.durable.state.tasks.values()) {
      const executor = executors.get(task.role);
      if (task.background && task.phase !== 'finished' && isExecutorNode(executor)) this.start(context, executor, task.taskId);
    }
  }

  /** Waits until no background task runs; rethrows an unexpected failure of one of them. */
  async settle(): Promise<void> {
    while (this.running.size > 0) {
      await this.race(Promise.all([...this.running.values()]));
    }
    this.throwIfFailed();
  }

  /** `work`, unless a background task fails unexpectedly first (a store failure): then that failure. */
  async race<Value>(work: Promise<Value>): Promise<Value> {
    this.throwIfFailed();
    const failed = new Promise<never>((_, reject) => {
      this.wake = () => reject((this.failure as { error: unknown }).error);
    });
    failed.catch(() => {});
    try {
      return await Promise.race([work, failed]);
    } finally {
      this.wake = undefined;
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  private async drive(context: RunContext, executor: ExecutorNode, taskId: string): Promise<void> {
    try {
      let failure: Failure | undefined;
      let answer = '';
      try {
        const outcome = await executor.drive(context, taskId);
        if (outcome.kind === 'limit-reached') {
          failure = {
            kind: 'executor-failed',
            message: `the "${executor.role.name}" executor reached a run limit (${outcome.limit})`,
          };
        } else answer = outcome.answer;
      } catch (error) {
        if (!ModelCallError.isInstance(error)) throw error;
        failure = {
          kind: 'executor-failed',
          message: `the "${executor.role.name}" executor stopped: its model failed (${error.failure.kind}: ${error.failure.message})`,
        };
      }
      const loop = (context.durable.state.tasks.get(taskId) as TaskState).loop;
      const stop = failure ? undefined : await subagentStop(context, executor, taskId, `subagent-stop:${taskId}:${loop}`, answer);
      await context.durable.commit(() => ({
        entries: [
          ...(stop?.entry ? [stop.entry] : []),
          {
            type: 'task-finished',
            taskId,
            data: failure ? { status: 'failed', failure } : { status: 'succeeded', output: stop?.output ?? answer },
          },
          {
            type: 'supplement-accepted',
            taskId: ENTRY_TASK_ID,
            data: {
              supplementId: `${backgroundSupplementPrefix}${taskId}:${loop}`,
              text: failure
                ? `Background task ${taskId} (${executor.role.name}) failed: ${failure.message}`
                : `Background task ${taskId} (${executor.role.name}) finished. Its result:\n${stop?.output ?? answer}`,
            },
          },
        ],
      }));
    } catch (error) {
      // A stop, the deadline or a lost ownership ends the planner too: the run's ending handles it.
      if (RunInterrupt.isInstance(error) || context.control.interrupt) return;
      this.failure ??= { error };
      this.wake?.();
    }
  }
}

/** Whether the planner has background results it has not read yet. */
export function hasUnreadBackgroundResults(state: AgentRunState): boolean {
  return [...state.supplements].some(([id, supplement]) => id.startsWith(backgroundSupplementPrefix) && !supplement.consumed);
}

/**
 * Runs a delegation to a background executor role (N-7): the same checks as a delegation (gate,
 * task contract, SubagentStart), then, in one commit, the task (new, or the finished task named by
 * `resumeTaskId` with the new input added to its transcript) and the delegation's result — the
 * task id — so the planner's batch goes on at once. The task is then driven by `background`.
 */
export async function runBackgroundDelegation(
  context: RunContext,
  executor: ExecutorNode,
  operationId: string,
  background: BackgroundTasks,
): Promise<void> {
  const { durable } = context;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  const fail = (failure: Failure, extra: AgentJournalRecord[] = []) =>
    durable.commit((state) => ({ entries: [...extra, ...operationResultEntries(state, operation(), failure)] }));
  if (operation().result) return;
  context.control.throwIfInterrupted();
  const unparsed = unparsedArgumentsFailure(operation().call);
  if (unparsed) return fail(unparsed);
  if (!(await passesGate(context, operationId, 'delegation'))) return;
  const input = executor.taskInput(operation().call.arguments);
  if (!input.ok) return fail({ kind: 'invalid-arguments', message: `invalid task: ${input.problem}` });
  const resumeId = resumeTaskIdOf(operation().call.arguments);
  if (resumeId !== undefined) {
    const task = durable.state.tasks.get(resumeId);
    if (!task?.background || task.role !== executor.role.name) {
      return fail({ kind: 'invalid-arguments', message: `there is no background task "${resumeId}" of ${executor.role.name}` });
    }
    if (task.phase !== 'finished') {
      return fail({
        kind: 'invalid-arguments',
        message: `background task "${resumeId}" is still running; its result will arrive`,
      });
    }
    await durable.commit((state) => ({
      entries: [
        { type: 'task-resumed', taskId: resumeId, data: { operationId, input: input.message } },
        ...operationResultEntries(state, operation(), undefined, startedText(resumeId, 'Resumed')),
      ],
    }));
    background.start(context, executor, resumeId);
    return;
  }
  const start = await subagentStart(context, executor, operation(), input.message);
  if ('denied' in start) return fail(start.denied, start.entry ? [start.entry] : []);
  const parentTaskId = operation().taskId;
  await durable.commit((state) => ({
    entries: [
      ...(start.entry ? [start.entry] : []),
      {
        type: 'task-created',
        taskId: operationId,
        data: { role: executor.role.name, parentTaskId, operationId, input: start.message, background: true },
      },
      ...operationResultEntries(state, operation(), undefined, startedText(operationId, 'Started')),
    ],
  }));
  background.start(context, executor, operationId);
}

function startedText(taskId: string, verb: 'Started' | 'Resumed'): string {
  return `${verb} background task ${taskId}. Keep working: its result will arrive later as a message.`;
}

function isExecutorNode(value: unknown): value is ExecutorNode {
  return typeof (value as ExecutorNode | undefined)?.taskInput === 'function' && (value as ExecutorNode).background === true;
}
