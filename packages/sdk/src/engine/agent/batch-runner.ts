import { RunInterrupt } from '../run/run-control.js';
import type { TaskState } from './agent-state.js';
import { runOperation } from './operation-runner.js';
import type { RoleDefinition, RunContext } from './run-context.js';

/**
 * Runs every unfinished member of a task's current batch: one by one, or all at once when the
 * run's parallel switch is on (X-4; never because the model emitted several calls). The batch
 * joins (its results enter the context) when the last result is committed; a member's business
 * failure never cancels the others.
 */
export async function runBatch(context: RunContext, task: TaskState, role: RoleDefinition): Promise<void> {
  const { durable } = context;
  const pending = task.batch.filter((id) => durable.state.operations.get(id)?.result === undefined);
  if (pending.length === 0) {
    // Every result was saved but the join was not (possible only with an older journal): join now.
    await durable.commit(() => ({ entries: [{ type: 'batch-joined', taskId: task.taskId, data: { loop: task.loop } }] }));
    return;
  }
  if (!durable.state.execution.parallel) {
    for (const operationId of pending) await runOperation(context, role, operationId);
    return;
  }
  const outcomes = await Promise.allSettled(pending.map((operationId) => runOperation(context, role, operationId)));
  const interrupt = outcomes.find((outcome) => outcome.status === 'rejected' && RunInterrupt.isInstance(outcome.reason));
  const failure = interrupt ?? outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure && failure.status === 'rejected') throw failure.reason;
}
