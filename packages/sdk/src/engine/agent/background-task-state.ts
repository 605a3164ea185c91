import type { Message } from '../../core/messages.js';

/** The parts of a task's state that resuming it changes (structural, so that agent-state.ts alone imports this file). */
interface ResumableTask {
  parentOperationId?: string;
  messages: Message[];
  protectedIndexes: number[];
  phase: string;
  answer?: string;
  outcome?: unknown;
}

/**
 * Applies `task-resumed` (N-7): the finished background task gets the new input at the end of its
 * own transcript and loops again, answering the delegation that resumed it.
 */
export function resumeTask(task: ResumableTask, data: { operationId: string; input: string }): void {
  task.parentOperationId = data.operationId;
  task.protectedIndexes.push(task.messages.length);
  task.messages.push({ role: 'user', content: data.input });
  task.phase = 'ready';
  delete task.answer;
  delete task.outcome;
}
