import type { HookIdentity } from '../../../hooks/hook-types.js';
import type { RunContext } from '../run-context.js';

/** The trusted identity of a step of a task, for hooks (K-8). */
export function identityOf(context: RunContext, taskId: string, operationId?: string): HookIdentity {
  const task = context.durable.state.tasks.get(taskId);
  const identity: HookIdentity = {
    runId: context.runId,
    sessionId: context.sessionId,
    agentName: context.durable.state.agentName,
    role: task?.role ?? 'unknown',
    taskId,
  };
  if (operationId !== undefined) identity.operationId = operationId;
  return identity;
}
