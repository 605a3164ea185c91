import type { ChainResult, Hook, HookSubjects } from '../../../hooks/hook-types.js';
import { evaluatePermission } from '../../../hooks/permission-policy.js';
import { runHookChain } from '../../../hooks/run-hook-chain.js';
import type { OperationState } from '../agent-state.js';
import type { RunContext } from '../run-context.js';
import { identityOf } from './hook-identity.js';

/**
 * Decides a call's gate once, before its first attempt (K-5…K-9, N-1, N-2, R-8): the PreToolUse
 * hooks in order (they may modify the arguments), then the tool guardrails and the permission
 * policy on the effective arguments. Deny beats ask beats allow, and a hook's `allow` never
 * bypasses the policy. The gate is journaled with the effective arguments and the hooks that made
 * them, and is reused on every retry and after a crash, never evaluated again.
 *
 * Without hooks, guardrails or rules nothing is journaled: the call is allowed as the model made it.
 */
export async function ensureGate(context: RunContext, operation: OperationState, kind: 'tool' | 'delegation'): Promise<void> {
  if (operation.gate) return;
  const governance = context.governance;
  const policy = governance.permissions;
  const hooks: Hook<'PreToolUse'>[] = [...(governance.hooks.PreToolUse ?? []), ...governance.toolGuards];
  if (hooks.length === 0 && (policy?.rules?.length ?? 0) === 0 && (policy?.default ?? 'allow') === 'allow') return;
  const toolName = operation.call.name;
  const chain: ChainResult<HookSubjects['PreToolUse']> = await runHookChain(
    'PreToolUse',
    hooks,
    { toolName, arguments: operation.call.arguments, kind },
    identityOf(context, operation.taskId, operation.operationId),
    { toolName },
  );
  const effectiveArguments = chain.subject.arguments;
  let decision: 'allow' | 'ask' | 'deny' = chain.decision === 'deny' || chain.decision === 'block' ? 'deny' : chain.decision;
  let reason = chain.reason;
  let source = chain.source;
  if (decision !== 'deny') {
    const permission = evaluatePermission(policy, toolName, effectiveArguments);
    if (permission.decision === 'deny' || (permission.decision === 'ask' && decision === 'allow')) {
      decision = permission.decision;
      reason = permission.reason;
      source = 'permission-policy';
    }
  }
  await context.durable.commit(() => ({
    entries: [
      {
        type: 'tool-gated',
        taskId: operation.taskId,
        data: {
          operationId: operation.operationId,
          decision,
          ...(reason !== undefined ? { reason } : {}),
          ...(source !== undefined ? { source } : {}),
          effectiveArguments,
          modifiedBy: chain.modifiedBy,
          outcomes: chain.outcomes,
        },
      },
    ],
  }));
}
