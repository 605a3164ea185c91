import { Semaphore } from '../../../core/semaphore.js';
import type { TaskState } from '../agent-state.js';
import type { RoleDefinition, RunContext } from '../run-context.js';
import { runDelegation } from './delegation.js';
import type { ExecutorNode } from './executor-node.js';
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

  constructor(role: RoleDefinition, executors: readonly (ExecutorNode | RemoteExecutorNode)[]) {
    super(role);
    this.executors = new Map(executors.map((executor) => [executor.role.name, executor]));
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
    if (executor) return runDelegation(context, executor, operationId);
    return super.runMember(context, operationId);
  }
}
