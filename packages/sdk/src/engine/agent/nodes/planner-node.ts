import { Semaphore } from '../../../core/semaphore.js';
import { ENTRY_TASK_ID, type TaskState } from '../agent-state.js';
import type { RoleDefinition, RunContext } from '../run-context.js';
import { BackgroundTasks, hasUnreadBackgroundResults, runBackgroundDelegation } from './background-tasks.js';
import { runDelegation } from './delegation.js';
import type { ExecutorNode } from './executor-node.js';
import type { TaskOutcome } from './node.js';
import { ReactNode, settleAll } from './react-node.js';
import { RemoteExecutorNode } from './remote-executor-node.js';

/**
 * The planner of a Plan–Executor agent (D-1, L-2): a ReAct node whose batch may mix its own plain
 * tools with delegations to executor roles. It decides again only when the whole batch is in
 * (X-1, L-4); replanning is simply its next loop. With parallel on, at most
 * `maxParallelExecutors` executor tasks of one batch are active; extra delegations queue, and
 * plain tools take no slot (C-6, X-4). After a crash, tasks that had started take slots first.
 */
export class PlannerNode extends ReactNode {
  readonly executors: ReadonlyMap<string, ExecutorNode | RemoteExecutorNode>;

  /** The background tasks of each run this planner drives in this process (N-7). */
  private readonly background = new WeakMap<RunContext, BackgroundTasks>();

  constructor(role: RoleDefinition, executors: readonly (ExecutorNode | RemoteExecutorNode)[]) {
    super(role);
    this.executors = new Map(executors.map((executor) => [executor.role.name, executor]));
  }

  /**
   * Drives the planner with its background tasks (N-7): unfinished ones (a resumed run) start again
   * at once; the run never ends while one runs. When the planner answers before their results were
   * read, it waits for them and, if results arrived, is asked to answer again with them in view.
   */
  override async drive(context: RunContext, taskId: string): Promise<TaskOutcome> {
    if (taskId !== ENTRY_TASK_ID) return super.drive(context, taskId);
    const background = this.backgroundOf(context);
    background.resumeUnfinished(context, this.executors);
    for (;;) {
      const outcome = await background.race(super.drive(context, taskId));
      await background.settle();
      const entry = context.durable.state.tasks.get(ENTRY_TASK_ID) as TaskState;
      if (outcome.kind !== 'answered' || !hasUnreadBackgroundResults(context.durable.state)) return outcome;
      await context.durable.commit(() => ({
        entries: [
          {
            type: 'answer-rejected',
            taskId: ENTRY_TASK_ID,
            data: {
              loop: entry.loop,
              feedback:
                'Results of your background tasks arrived after that answer; they follow. Answer again with them in view.',
            },
          },
        ],
      }));
    }
  }

  private backgroundOf(context: RunContext): BackgroundTasks {
    const known = this.background.get(context);
    if (known) return known;
    const tasks = new BackgroundTasks();
    this.background.set(context, tasks);
    return tasks;
  }

  protected override async runBatch(context: RunContext, task: TaskState): Promise<void> {
    const { state } = context.durable;
    if (!state.execution.parallel) {
      await super.runBatch(context, task);
      return;
    }
    const pending = this.pendingMembers(context, task);
    if (pending.length === 0) {
      await super.runBatch(context, task);
      return;
    }
    const isDelegation = (operationId: string) => this.executors.has(state.operations.get(operationId)?.call.name ?? '');
    const delegations = pending.filter(isDelegation);
    const started = delegations.filter((operationId) => state.tasks.has(operationId));
    const queued = delegations.filter((operationId) => !state.tasks.has(operationId));
    const slots = new Semaphore(state.execution.maxParallelExecutors);
    await settleAll([
      ...pending.filter((operationId) => !isDelegation(operationId)).map((operationId) => this.runMember(context, operationId)),
      ...[...started, ...queued].map((operationId) => slots.run(() => this.runMember(context, operationId))),
    ]);
  }

  protected override runMember(context: RunContext, operationId: string): Promise<void> {
    const call = context.durable.state.operations.get(operationId)?.call;
    const executor = call ? this.executors.get(call.name) : undefined;
    if (executor instanceof RemoteExecutorNode) return executor.run(context, this.role, operationId);
    if (executor?.background) return runBackgroundDelegation(context, executor, operationId, this.backgroundOf(context));
    if (executor) return runDelegation(context, executor, operationId);
    return super.runMember(context, operationId);
  }
}
