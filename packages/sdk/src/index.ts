/**
 * @module @agentloom/sdk
 * The public API of AgentLoom's SDK: agents whose runs survive a crash.
 */

// Capabilities (issue 9): skills, a tool registry with deferred loading, the MCP approval port, and the
// workspace with its sandboxes. The MCP client is `@agentloom/sdk/capabilities/mcp` (it needs the
// optional peer dependency `@modelcontextprotocol/sdk`).
export {
  createDenyingMcpApprovalPort,
  type McpApprovalDecision,
  type McpApprovalPort,
  type McpApprovalRequest,
} from './capabilities/mcp/approval-port.js';
export {
  createReadSkillTool,
  InvalidSkillError,
  type LoadSkillsOptions,
  loadSkills,
  type Skill,
  type SkillCatalog,
  type SkillMetadata,
  type SkillProblem,
  skillsPromptSection,
  validateSkillFile,
} from './capabilities/skills/index.js';
export { type Tool, type ToolExecutionContext, type ToolOptions, tool } from './capabilities/tools/index.js';
export { createToolRegistry, type ToolRegistry, type ToolRegistryOptions } from './capabilities/tools/tool-registry.js';
export { DeferredToolNotFoundError, InvalidToolArgumentsError } from './capabilities/tools/tool-registry-errors.js';
export type { ToolSearchHit } from './capabilities/tools/tool-search.js';
export {
  AgentLoomError,
  type AgentLoomErrorCode,
  type ConfigurationIssue,
  InvalidConfigurationError,
  InvalidRunRequestError,
  ModelCallError,
  OwnershipLostError,
  RunNotActiveError,
  RunOwnedElsewhereError,
  StaleEpochError,
  StoreFailureError,
  UnsupportedJournalFormatError,
} from './core/errors/index.js';
export { type Failure, type FailureKind, isRetryableFailure } from './core/failure.js';
export type { AssistantMessage, Message, ToolCall, ToolResultMessage, Usage, UserMessage } from './core/messages.js';
export type { RetryPolicy } from './core/retry-policy.js';
export type { RunResult, RunStatus, TerminalReason } from './core/run-result.js';
export { Agent, type AgentRunOptions } from './engine/agent/agent.js';
export type {
  AgentConfig,
  ExecutorConfig,
  PlanExecutorAgentConfig,
  PlannerConfig,
  ReactAgentConfig,
} from './engine/agent/agent-config.js';
export { COMPRESSION_SYSTEM_PROMPT, estimateTokens } from './engine/agent/compression/index.js';
export type { ContextOptions, TokenCounter } from './engine/agent/context-options.js';
export type { RunLimits } from './engine/agent/execute-run.js';
export type { ExecutionOptions, ResolvedExecution } from './engine/agent/execution-options.js';
export { RunBlockedError } from './engine/agent/governance/step-hooks.js';
export { MissingPromptVariableError } from './engine/agent/prompt-template.js';
export type { RunEvent } from './engine/agent/run-events.js';
export { Run } from './engine/agent/run-handle.js';
export type { SessionRun } from './engine/agent/session/index.js';
export type { SupplementReceipt } from './engine/agent/supplements.js';
// Workflows: the outer engine (D-5, W-1…W-8).
export {
  type AgentBinding,
  type AgentInvocationReference,
  AgentNode,
  type AnyStateField,
  type ArgumentSource,
  appendList,
  type CapabilityBinding,
  CapabilityNode,
  type Command,
  command,
  type DecisionSource,
  type Durability,
  END,
  type FieldKind,
  type FieldName,
  FunctionNode,
  type FunctionNodeContext,
  type FunctionNodeOptions,
  InterruptOutsideWorkflowError,
  InvalidStateUpdateError,
  innerRunIdOf,
  interrupt,
  type LastValueOptions,
  type LoopLimitHit,
  LoopLimitReachedError,
  type LoopOptions,
  lastValue,
  mergeWith,
  type NodeFunction,
  type NodeRetryPolicy,
  type OutputBinding,
  type RetryableKind,
  type RunLineage,
  RunNotContinuableError,
  type Send,
  START,
  type StateDefinition,
  type StateField,
  type StateOf,
  send,
  UndeclaredRouteError,
  type UpdateOf,
  Workflow,
  WorkflowBuilder,
  type WorkflowEvent,
  type WorkflowInterrupt,
  type WorkflowIssue,
  type WorkflowNode,
  type WorkflowOptions,
  type WorkflowResult,
  WorkflowRun,
  type WorkflowRunOptions,
  type WorkflowTaskFailure,
  type WorkflowTerminalReason,
  WorkflowValidationError,
} from './engine/workflow/index.js';
export {
  type ApprovalDecision,
  type ApprovalPort,
  type ApprovalRequest,
  type BusIdentity,
  type BusMessage,
  type ChainResult,
  type EventBus,
  evaluatePermission,
  type Guardrail,
  type Guardrails,
  type GuardrailVerdict,
  type Hook,
  type HookContext,
  type HookDecision,
  type HookIdentity,
  type HookMap,
  type HookOutcome,
  type HookSubjects,
  type HookTrigger,
  InMemoryEventBus,
  type PermissionPolicy,
  type PermissionRule,
  type PermissionVerdict,
  type ToolGuardrail,
} from './hooks/index.js';
export type {
  FinishReason,
  LanguageModel,
  LanguageModelV1,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelSettings,
  ModelStreamPart,
  ToolDefinition,
} from './model/index.js';
export {
  createLanguageModelFromEnvironment,
  type LanguageModelFromEnvironmentOptions,
  readProviderEnvironment,
} from './providers/index.js';
export {
  type BubblewrapAvailability,
  BubblewrapSandbox,
  type BubblewrapSandboxOptions,
  type CleanupOutcome,
  type CommandRequest,
  type CommandResult,
  checkBubblewrap,
  createWorkspace,
  type FileChange,
  FileCheckpointLog,
  FileEditConflictError,
  FileNotFoundError,
  FileTooLargeError,
  type HostUser,
  InvalidSearchPatternError,
  type MountBinding,
  type ProcessLaunch,
  type ProcessRequest,
  ProcessSandbox,
  type RollbackOptions,
  type RollbackResult,
  RunNotSettledError,
  type Sandbox,
  SandboxUnavailableError,
  type StaleCleanupReport,
  Workspace,
  WorkspaceAccessError,
  type WorkspaceLimits,
  type WorkspaceOptions,
  type WorkspaceRefusalReason,
  type WorkspaceScope,
  type WorkspaceView,
} from './sandbox/index.js';
export {
  type AcquireRequest,
  type AcquireResult,
  type AppendRequest,
  type ExternalAppendRequest,
  type JournalEntry,
  MemoryRunStore,
  type MemoryRunStoreOptions,
  type NewJournalEntry,
  type RunRecord,
  type RunStore,
  type StoredRunStatus,
} from './store/index.js';
export { createAgentTracing, type TracingOptions } from './telemetry/index.js';
