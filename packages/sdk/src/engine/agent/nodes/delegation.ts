import { ModelCallError } from '../../../core/errors/index.js';
import type { Failure } from '../../../core/failure.js';
import type { OperationState, TaskState } from '../agent-state.js';
import { operationResultEntries } from '../operation-runner.js';
import type { RunContext } from '../run-context.js';
import type { ExecutorNode } from './executor-node.js';
import { LoopBudgetExhausted } from './node.js';

/**
 * Runs one delegation of a planner's batch to its result (L-3…L-5, D-3, S-10, R-4). The
 * delegation's operation id is the executor task's id, so a resumed run finds the task again:
 * a finished task is reused as saved, an unfinished one continues from its last saved loop with
 * its own context, and a task not yet created is created once.
 *
 * Invalid task arguments return to the planner as a correctable error and create no task (C-13).
 * The executor's final answer, or its model failure, becomes the delegation's result in the same
 * commit that ends the task, so the planner receives it exactly once. An exhausted budget ends
 * the whole run.
 */
export async function runDelegation(context: RunContext, executor: ExecutorNode, operationId: string): Promise<void> {
  const { durable } = context;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  if (operation().result) return;
  // A queued delegation that gets its slot after a stop never starts (S-5).
  context.control.throwIfInterrupted();
  if (!durable.state.tasks.has(operationId)) {
    const input = executor.taskInput(operation().call.arguments);
    if (!input.ok) {
      await finishDelegation(context, operation(), { kind: 'invalid-arguments', message: `invalid task: ${input.problem}` });
      return;
    }
    await durable.commit(() => ({
      entries: [
        {
          type: 'task-created',
          taskId: operationId,
          data: { role: executor.role.name, parentTaskId: operation().taskId, operationId, input: input.message },
        },
      ],
    }));
  }
  let answer: string;
  try {
    const outcome = await executor.drive(context, operationId);
    if (outcome.kind === 'loop-budget-exhausted') throw new LoopBudgetExhausted();
    answer = outcome.answer;
  } catch (error) {
    if (!ModelCallError.isInstance(error)) throw error;
    await finishDelegation(context, operation(), {
      kind: 'executor-failed',
      message: `the "${executor.role.name}" executor stopped: its model failed (${error.failure.kind}: ${error.failure.message})`,
    });
    return;
  }
  await finishDelegation(context, operation(), undefined, answer);
}

function finishDelegation(context: RunContext, operation: OperationState, failure: Failure | undefined, output?: string) {
  return context.durable.commit((state) => {
    const task = state.tasks.get(operation.operationId) as TaskState | undefined;
    const entries = operationResultEntries(state, operation, failure, output);
    if (task) {
      entries.unshift({
        type: 'task-finished',
        taskId: task.taskId,
        data: failure ? { status: 'failed', failure } : { status: 'succeeded', output: output ?? '' },
      });
    }
    return { entries };
  });
}
