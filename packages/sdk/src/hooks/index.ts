export type { ApprovalDecision, ApprovalPort, ApprovalRequest } from './approval.js';
export { type BusIdentity, type BusMessage, type EventBus, InMemoryEventBus } from './event-bus.js';
export { type Guardrail, type Guardrails, type GuardrailVerdict, guardrailHook, type ToolGuardrail } from './guardrails.js';
export type {
  ChainResult,
  Hook,
  HookContext,
  HookDecision,
  HookIdentity,
  HookMap,
  HookOutcome,
  HookSubjects,
  HookTrigger,
} from './hook-types.js';
export {
  evaluatePermission,
  type PermissionPolicy,
  type PermissionRule,
  type PermissionVerdict,
  permissionPolicySchema,
} from './permission-policy.js';
export { runHookChain } from './run-hook-chain.js';
