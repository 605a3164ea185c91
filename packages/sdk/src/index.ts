/**
 * @module @agentloom/sdk
 * The public API of AgentLoom's SDK: agents whose runs survive a crash.
 *
 * The exports are grouped by who uses them (the grouping is deliberate: `biome.json` keeps this
 * file out of import sorting):
 * 1. definition authors and tool authors: building agents, tools and workflows, in code or from
 *    definitions as data;
 * 2. hosts: starting, observing, stopping and answering runs through `RunHandle` and `RunClient`;
 *    their results, events (and the events' schema) and errors.
 * A name is here when one of them writes it in their code: a value they call, a type they
 * annotate, an error they catch. Anything not exported is internal and may change without notice.
 * Whoever writes an adapter (a run store, a model provider, a sandbox) imports the ports from
 * `@agentloom/sdk/ports`. Other entry points: `@agentloom/sdk/testing`,
 * `@agentloom/sdk/testing/contract`, `@agentloom/sdk/store/sqlite`, `@agentloom/sdk/store/postgres`,
 * `@agentloom/sdk/providers/openai-compatible`, `@agentloom/sdk/providers/anthropic`,
 * `@agentloom/sdk/capabilities/mcp` (with its approval port) and the JSON Schema files
 * `@agentloom/sdk/schemas/*` (definitions and run events).
 *
 * Names follow one convention (docs/architecture.md, "Public names"): what belongs to an agent
 * run is `Agent…` (`AgentRun`, `AgentRunEvent`, `AgentRunResult`), what belongs to a workflow run
 * is `Workflow…`, and what a store keeps is `RunRecord` / `JournalEntry`.
 */

// =============================================================================================
// 1. Building agents and workflows
// =============================================================================================

// Agents (D-1…D-4): ReAct and Plan–Executor, configured in code.
export { Agent, type AgentRunOptions } from './engine/agent/agent.js';
export type {
  AgentConfig,
  ExecutorConfig,
  PlanExecutorAgentConfig,
  PlannerConfig,
  ReactAgentConfig,
} from './engine/agent/agent-config.js';
export { agentConfigIssues } from './engine/agent/agent-config.js';
export type { ExecutionOptions } from './engine/agent/execution-options.js';
export type { ContextOptions, TokenCounter } from './engine/agent/context-options.js';
export {
  type ContextEntry,
  type ContextReport,
  type ContextSections,
  expandUserCommand,
  type MessageShaping,
  mergeAdjacentMessages,
  type ShapingMode,
  type UserCommand,
} from './engine/agent/context-features/index.js';
export type { RunVariant } from './engine/agent/agent-journal.js';
export { estimateTokens } from './engine/agent/compression/index.js';
export type { RetryPolicy } from './core/retry-policy.js';
export { type Failure, type FailureKind, isRetryableFailure } from './core/failure.js';

// Tools, skills and the deferred tool registry (K-1). The MCP client is
// `@agentloom/sdk/capabilities/mcp` (it needs the optional peer dependency `@modelcontextprotocol/sdk`).
export {
  type CallJournal,
  type RemoteExecutor,
  type Tool,
  type ToolExecutionContext,
  type ToolOptions,
  tool,
} from './capabilities/tools/index.js';
export { type JsonSchemaToolOptions, jsonSchemaTool } from './capabilities/tools/json-schema-tool.js';
export type { JsonSchema } from './core/json-schema/index.js';
export { createToolRegistry, type ToolRegistry, type ToolRegistryOptions } from './capabilities/tools/tool-registry.js';
export { DeferredToolNotFoundError, InvalidToolArgumentsError } from './capabilities/tools/tool-registry-errors.js';
export type { ToolSearchHit } from './capabilities/tools/tool-search.js';
export {
  InvalidSkillError,
  type LoadSkillsOptions,
  loadSkills,
  type Skill,
  type SkillCatalog,
  type SkillMetadata,
  type SkillProblem,
  validateSkillFile,
} from './capabilities/skills/index.js';
export {
  createMemoryTools,
  type FactStore,
  InProcessFactStore,
  type MemoryFact,
  type MemoryOptions,
  type MemoryScope,
  MemoryScopeMissingError,
} from './capabilities/memory/index.js';
export {
  type CodeOrchestrationOptions,
  SCRIPT_TOOL_NAME,
  ScriptFailedError,
} from './capabilities/code-orchestration/index.js';

// Hooks (lifecycle callbacks, K-4…K-9) and governance: permissions (N-1) and guardrails (N-2).
export type {
  Guardrail,
  Guardrails,
  GuardrailVerdict,
  Hook,
  HookContext,
  HookDecision,
  HookIdentity,
  HookMap,
  HookSubjects,
  HookTrigger,
  PermissionPolicy,
  PermissionRule,
  ToolGuardrail,
} from './hooks/index.js';

// The workspace: confined file tools, checkpoints, and `run_command` in a sandbox (F-1…F-5).
export {
  BubblewrapSandbox,
  type BubblewrapSandboxOptions,
  createFileArea,
  createWorkspace,
  FileArea,
  type FileAreaEntry,
  type FileAreaOptions,
  type FileAreaStatus,
  type FileAreaUsage,
  type FileChange,
  type MountBinding,
  ProcessSandbox,
  type RollbackOptions,
  type Sandbox,
  type RollbackResult,
  Workspace,
  type WorkspaceLimits,
  type WorkspaceOptions,
  type WorkspaceScope,
} from './sandbox/index.js';

// Workflows: the outer engine (D-5, W-1…W-8).
export {
  type AgentBinding,
  type ArgumentSource,
  appendList,
  type CapabilityBinding,
  type Command,
  command,
  type DecisionSource,
  type Durability,
  END,
  type FieldName,
  type FunctionNodeContext,
  type FunctionNodeOptions,
  type InputAnswerRequest,
  InputNode,
  type InputNodeOptions,
  type InputRequest,
  type InputTimeout,
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
  type PendingInput,
  type RetryableKind,
  type RunLineage,
  RunNotContinuableError,
  type Send,
  START,
  type StateDefinition,
  type StateField,
  type StateOf,
  send,
  type UpdateOf,
  Workflow,
  WorkflowBuilder,
  type WorkflowIssue,
  type WorkflowNode,
  type WorkflowOptions,
  WorkflowValidationError,
} from './engine/workflow/index.js';

// Definitions as data: the versioned JSON format of agents and workflows, built with a registry
// that resolves the names they use. The JSON Schema files are `@agentloom/sdk/schemas/*`.
export {
  type AgentDefinition,
  agentDefinitionSchema,
  type Comparison,
  type Condition,
  createAgent,
  createWorkflow,
  DEFINITION_FORMAT_VERSION,
  type DefinitionProblem,
  type DefinitionRegistry,
  InvalidDefinitionError,
  type NamedReducer,
  type WorkflowDefinition,
  type WorkflowStateView,
  workflowDefinitionSchema,
  createTeam,
  type TeamDefinition,
  teamDefinitionSchema,
} from './definitions/index.js';

// Teams (N-12): topologies on the workflow engine, every turn, choice and ledger in the journal.
export {
  and,
  costBudget,
  DEFAULT_MAX_TURNS,
  ExternalStop,
  externalStop,
  type GroupChatOptions,
  groupChat,
  type HandoffOptions,
  type HistoryFilter,
  handoff,
  type HandoffMember,
  type HandoffTeamOptions,
  handoffToUser,
  maxMessages,
  maxTurns,
  type OrchestratorOptions,
  or,
  orchestrator,
  PROGRESS_LEDGER_PROMPT,
  TASK_LEDGER_PROMPT,
  type BoardTaskDefinition,
  type ClaimApproval,
  type TaskBoardOptions,
  taskBoard,
  type ReviewOptions,
  type FoundProblem,
  review,
  type EvaluatorOptimizerOptions,
  type Evaluation,
  evaluatorOptimizer,
  type VoteAggregate,
  type VoteOptions,
  type VoteOutcome,
  vote,
  type PrivateNote,
  type SelectorModel,
  type SpeakerFunction,
  type SpeakerView,
  Team,
  type TeamConfig,
  type TeamMember,
  type TeamMessage,
  type TeamOutput,
  type TeamStopReason,
  type TeamTermination,
  type TerminationCondition,
  terminationSchema,
  textMention,
  timeout,
  tokenBudget,
  type Topology,
} from './teams/index.js';
export type { ProgressLedger, TeamEventPayload, TeamLedger } from './engine/workflow/team-events.js';

// Models: the port an agent is given, choosing one from the environment (docs/providers.md); telemetry (N-3).
export type { LanguageModel, ModelSettings } from './model/index.js';
export {
  createLanguageModelFromEnvironment,
  type LanguageModelFromEnvironmentOptions,
  readProviderEnvironment,
} from './providers/index.js';
export {
  type AgentTelemetryProfile,
  createAgentTracing,
  createWorkflowTracing,
  GENAI_CONVENTIONS_VERSION,
  type RoleTelemetryProfile,
  type RunTracing,
  type TracingOptions,
} from './telemetry/index.js';

// Errors a builder meets: an invalid configuration is found before anything runs (B-4).
export {
  AgentLoomError,
  type AgentLoomErrorCode,
  type ConfigurationIssue,
  InvalidConfigurationError,
} from './core/errors/index.js';
export { MissingPromptVariableError } from './engine/agent/prompt-template.js';

// =============================================================================================
// 2. Hosting runs
// =============================================================================================

// The handle of a run executing in this process, the same for agent and workflow runs (ADR 0020).
export type { RunHandle } from './engine/run/run-handle.js';

// An agent run: its handle, events and result (`agent.run()`), sessions and supplements.
export { AgentRun } from './engine/agent/agent-run.js';
export type { RunEvent as AgentRunEvent } from './engine/agent/run-events.js';
export type {
  RunResult as AgentRunResult,
  RunStatus as AgentRunStatus,
  TerminalReason as AgentTerminalReason,
} from './core/run-result.js';
export type { RunLimits } from './engine/agent/execute-run.js';
export type { SessionRun } from './engine/agent/session/index.js';
export type { SupplementReceipt } from './engine/agent/supplements.js';
export type { AssistantMessage, Message, ToolCall, ToolResultMessage, Usage, UserMessage } from './core/messages.js';

// A workflow run: its handle, events, result and interrupts; the inner run of an agent node (R-6).
export {
  InterruptOutsideWorkflowError,
  InvalidStateUpdateError,
  innerRunIdOf,
  UndeclaredRouteError,
  type WorkflowEvent,
  type WorkflowInterrupt,
  type WorkflowResult,
  WorkflowRun,
  type WorkflowRunOptions,
  type WorkflowTaskFailure,
  type WorkflowTeamEvent,
  type WorkflowTerminalReason,
} from './engine/workflow/index.js';

// Approvals (K-5) and the event bus (K-3): ports a host connects to its people and services.
export {
  type ApprovalDecision,
  type ApprovalPort,
  type ApprovalRequest,
  type BusIdentity,
  type BusMessage,
  type EventBus,
  InMemoryEventBus,
} from './hooks/index.js';
// A person's answer to an MCP server's question an agent run waits for (ADR 0038).
export type { ElicitationAnswerRequest } from './engine/agent/governance/answer-elicitation.js';

// The sandbox's availability and the run directory's cleanup, for a host's operations.
export {
  type BubblewrapAvailability,
  type CleanupOutcome,
  checkBubblewrap,
  type StaleCleanupReport,
} from './sandbox/index.js';

// Runs this process does not own (ADR 0005): describe, follow, stop, supplement, approve, create,
// list and delete them, and read a session's history, through the store. `runEventSchema` is the
// run events' contract (zod; `@agentloom/sdk/schemas/run-event.schema.json` as JSON Schema).
export {
  type CreateRunOptions,
  type HostedRunEvent,
  type Page,
  RunClient,
  type RunClientOptions,
  type RunSummary,
  runEventSchema,
} from './client/index.js';
export type {
  AgentRunDescription,
  ApprovalDescription,
  ElicitationDescription,
  CompressionDescription,
  HookChangeDescription,
  OperationDescription,
  OperationStatus,
  RunDescription,
  SupplementDescription,
  TaskDescription,
  TeamRunDescription,
} from './client/index.js';

// Where runs are kept: the store a host gives its agents, workflows and `RunClient`. Writing a
// store: `@agentloom/sdk/ports`.
export {
  type JournalEntry,
  MemoryRunStore,
  type MemoryRunStoreOptions,
  type RunKind,
  type RunMetadata,
  type RunStore,
  type StoredRunStatus,
} from './store/index.js';

// Errors a host handles: ownership (R-1…R-5), refused requests, the store, workspace refusals.
export {
  type AgentIdentity,
  AgentMismatchError,
  ApprovalNotFoundError,
  ElicitationNotFoundError,
  ElicitationNotPendingError,
  InvalidElicitationAnswerError,
  InputAlreadyAnsweredError,
  InputNotFoundError,
  InvalidInputAnswerError,
  InvalidIdentifierError,
  InvalidRunRequestError,
  RunInputMismatchError,
  RunAlreadyExistsError,
  RunNotFinishedError,
  RunNotFoundError,
  OwnershipLostError,
  RunNotActiveError,
  RunDetachedError,
  RunOwnedElsewhereError,
  StoreFailureError,
  StoreFileChangedError,
  UnsupportedJournalFormatError,
} from './core/errors/index.js';
export {
  FileEditConflictError,
  FileNotReadError,
  FileNotFoundError,
  FileTooLargeError,
  InvalidSearchPatternError,
  RunNotSettledError,
  SandboxUnavailableError,
  WorkspaceAccessError,
  type WorkspaceRefusalReason,
} from './sandbox/index.js';
