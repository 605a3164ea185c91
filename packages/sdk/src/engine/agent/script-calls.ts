import type { ScriptCallOutcome, ScriptToolCaller } from '../../capabilities/code-orchestration/index.js';
import { isScriptTool } from '../../capabilities/code-orchestration/index.js';
import type { OperationState } from './agent-state.js';
import type { RoleDefinition, RunContext } from './run-context.js';

/** The stable id of the `index`-th call made by the script of `scriptOperationId` (N-15). */
export function scriptCallIdOf(scriptOperationId: string, index: number): string {
  return `${scriptOperationId}#${index}`;
}

/** Runs one operation to its final result (the engine's `runOperation`, passed in to keep imports one-way). */
type OperationRunner = (context: RunContext, role: RoleDefinition, operationId: string) => Promise<void>;

/** Inner calls being run in this process, by run and operation: a retried script waits for them, never starts them twice. */
const inFlight = new WeakMap<RunContext, Map<string, Promise<void>>>();

/**
 * Serves the tool calls of one script (code orchestration, N-15). Each call becomes an operation
 * of its own, registered in the journal under `<script>#<index>` before anything else happens,
 * then run by `runOperation` exactly like a direct call: gate (hooks, guardrails, permissions,
 * approvals), attempt intent, timeout, retries, post-use hooks, result (X-5, X-7, K-6). A call
 * already saved (the script runs again after a crash or a retry) returns its saved result and is
 * not made again; when the script asks for something else at that index it has diverged, and it
 * is stopped with a typed failure rather than given a result that belongs to another call.
 */
export function scriptCallRunner(
  context: RunContext,
  role: RoleDefinition,
  script: OperationState,
  runOperation: OperationRunner,
): ScriptToolCaller {
  return async (index, name, args): Promise<ScriptCallOutcome> => {
    const operationId = scriptCallIdOf(script.operationId, index);
    const saved = context.durable.state.operations.get(operationId);
    if (saved) {
      if (saved.call.name !== name || JSON.stringify(saved.script?.requested) !== JSON.stringify(args)) {
        throw new ScriptDivergedError(
          `call ${index} of the script asked for ${name}, but the first run of the script called ${saved.call.name} with other arguments there; a script must make the same calls when it runs again`,
        );
      }
    } else {
      const target = role.tools.get(name);
      if (!target || isScriptTool(target)) {
        return { ok: false, failure: { kind: 'unknown-tool', message: `a script cannot call a tool named "${name}"` } };
      }
      await context.durable.commit(() => ({
        entries: [
          {
            type: 'script-call-started',
            taskId: script.taskId,
            data: { operationId, scriptOperationId: script.operationId, index, call: { id: operationId, name, arguments: args } },
          },
        ],
      }));
    }
    const running = inFlight.get(context) ?? new Map<string, Promise<void>>();
    inFlight.set(context, running);
    let call = running.get(operationId);
    if (!call) {
      call = runOperation(context, role, operationId).finally(() => running.delete(operationId));
      running.set(operationId, call);
    }
    await call;
    const result = context.durable.state.operations.get(operationId)?.result;
    if (!result) throw new Error(`the script call ${operationId} ended without a result`);
    if (result.status === 'succeeded') return { ok: true, content: result.content };
    return { ok: false, failure: result.failure ?? { kind: 'tool-error', message: result.content } };
  };
}

/** A script that, run again, asked for a different call than the one saved at the same index. */
export class ScriptDivergedError extends Error {
  override readonly name = 'ScriptDivergedError';
  readonly code = 'script-diverged';
  readonly retryable = false;
}
