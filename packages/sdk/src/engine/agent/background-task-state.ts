import type { TaskState } from './agent-state.js';

/**
 * Applies `task-resumed` (N-7): the finished background task gets the new input at the end of its
 * own transcript and loops again, answering the delegation that resumed it.
 */
export function resumeTask(task: TaskState, data: { operationId: string; input: string }): void {
  task.parentOperationId = data.operationId;
  task.protectedIndexes.push(task.messages.length);
  task.messages.push({ role: 'user', content: data.input });
  task.phase = 'ready';
  delete task.answer;
  delete task.outcome;
}
