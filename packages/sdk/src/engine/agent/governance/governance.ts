import type { ApprovalPort } from '../../../hooks/approval.js';
import { type Guardrails, guardrailHook } from '../../../hooks/guardrails.js';
import type { Hook, HookMap, HookSubjects, HookTrigger } from '../../../hooks/hook-types.js';
import type { PermissionPolicy } from '../../../hooks/permission-policy.js';

/**
 * How an agent is governed (K-4…K-10, N-1, N-2): hooks by trigger point, the permission policy,
 * guardrails (already turned into fail-closed hooks at their points) and where approvals go.
 */
export interface Governance {
  hooks: HookMap;
  permissions: PermissionPolicy | undefined;
  /** Input guardrails, as UserPromptSubmit-style hooks. */
  inputGuards: readonly Hook<'UserPromptSubmit'>[];
  /** Output guardrails on the final answer, as Stop-style hooks. */
  outputGuards: readonly Hook<'Stop'>[];
  /** Tool guardrails, as PreToolUse-style hooks. */
  toolGuards: readonly Hook<'PreToolUse'>[];
  approvals: ApprovalPort | undefined;
  approvalTimeoutMs: number;
}

/** Builds the governance of an agent from its configuration. */
export function createGovernance(options: {
  hooks?: HookMap;
  permissions?: PermissionPolicy;
  guardrails?: Guardrails;
  approvals?: ApprovalPort;
  approvalTimeoutMs?: number;
}): Governance {
  const guardrails = options.guardrails ?? {};
  return {
    hooks: options.hooks ?? {},
    permissions: options.permissions,
    inputGuards: (guardrails.input ?? []).map((guard) =>
      guardrailHook<'UserPromptSubmit'>(guard.name, (subject: HookSubjects['UserPromptSubmit'], context) =>
        guard.check(subject.text, context),
      ),
    ),
    outputGuards: (guardrails.output ?? []).map((guard) =>
      guardrailHook<'Stop'>(guard.name, (subject: HookSubjects['Stop'], context) => guard.check(subject.answer, context)),
    ),
    toolGuards: (guardrails.tool ?? []).map((guard) =>
      guardrailHook<'PreToolUse'>(guard.name, (subject: HookSubjects['PreToolUse'], context) =>
        guard.check({ toolName: subject.toolName, arguments: subject.arguments }, context),
      ),
    ),
    approvals: options.approvals,
    approvalTimeoutMs: options.approvalTimeoutMs ?? 600_000,
  };
}

/** Whether any hook is configured for `trigger`. */
export function hasHooks(governance: Governance, trigger: HookTrigger): boolean {
  return (governance.hooks[trigger]?.length ?? 0) > 0;
}
