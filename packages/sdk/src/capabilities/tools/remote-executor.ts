import type { Tool } from './tool.js';

/**
 * An executor role of a Plan–Executor agent that runs elsewhere (D-1, L-2): another agent reached
 * over a protocol (an A2A agent, from `a2aAgent()`). The planner's model sees it as a delegation
 * like any executor role (L-3); each delegation is one call of `tool`, whose parameters are the
 * task contract. It has no prompt, model or tools here: those are the remote agent's own (L-5).
 */
export interface RemoteExecutor {
  readonly kind: 'remote-executor';
  /** The name the planner's model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  /** When to delegate to this role; the planner's model reads it. */
  readonly description: string;
  /** Runs one delegated task; resumable when it continues its calls from `callJournal`. */
  readonly tool: Tool;
}

/** Whether `value` is a remote executor role (made by `a2aAgent()`, say). */
export function isRemoteExecutor(value: unknown): value is RemoteExecutor {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RemoteExecutor>;
  return (
    candidate.kind === 'remote-executor' &&
    typeof candidate.name === 'string' &&
    typeof candidate.description === 'string' &&
    typeof candidate.tool === 'object' &&
    candidate.tool !== null &&
    typeof candidate.tool.execute === 'function'
  );
}
