import { ENTRY_TASK_ID, type TaskState } from './agent-state.js';
import { runBatch } from './batch-runner.js';
import { runModelStep } from './model-step.js';
import type { RoleDefinition, RunContext } from './run-context.js';

/** What a task's loop ended with, for the caller to turn into a run result. */
export type TaskOutcome = { kind: 'answered'; answer: string } | { kind: 'loop-budget-exhausted' };

/**
 * Drives one task through its loops (L-1): charge a loop → call the model → run the whole batch
 * → next loop, until the model answers. Each step reads the task's phase from the journal-backed
 * state, so the same function continues a recovered task from wherever it stopped: a loop that
 * was charged is never charged again, a saved response is never asked for again, a saved result
 * is never redone. The budget is checked before a loop starts: the last allowed loop runs
 * and may answer, the next one is refused.
 */
export async function driveTask(context: RunContext, taskId: string, role: RoleDefinition): Promise<TaskOutcome> {
  const { durable, control } = context;
  const task = () => durable.state.tasks.get(taskId) as TaskState;
  for (;;) {
    control.throwIfInterrupted();
    const current = task();
    switch (current.phase) {
      case 'ready': {
        if (durable.state.loopsUsed >= durable.state.execution.maxLoops) return { kind: 'loop-budget-exhausted' };
        const loop = current.loop + 1;
        await durable.commit(() => ({
          entries: [{ type: 'loop-started', taskId, data: { loop } }],
          chargeLoops: 1,
        }));
        break;
      }
      case 'calling-model':
        await runModelStep(context, current, role);
        break;
      case 'in-batch':
        await runBatch(context, current, role);
        break;
      case 'answered':
        return { kind: 'answered', answer: current.answer ?? '' };
    }
  }
}

/** Drives the entry task of a ReAct run. */
export function driveReactRun(context: RunContext, role: RoleDefinition): Promise<TaskOutcome> {
  return driveTask(context, ENTRY_TASK_ID, role);
}
