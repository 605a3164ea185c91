/**
 * The shapes of an agent's configuration: what a caller writes (`AgentConfig`) and what the
 * engine runs with once defaults are applied (`ResolvedAgentConfig`). Validation and resolution
 * live in agent-config.ts; this file holds only types, so type-only importers load no zod.
 */
import type { z } from 'zod';
import type { CodeOrchestrationOptions } from '../../capabilities/code-orchestration/index.js';
import type { MemoryOptions } from '../../capabilities/memory/index.js';
import type { SkillCatalog } from '../../capabilities/skills/load-skills.js';
import type { RemoteExecutor } from '../../capabilities/tools/remote-executor.js';
import type { Tool } from '../../capabilities/tools/tool.js';
import type { Failure } from '../../core/failure.js';
import type { ApprovalPort } from '../../hooks/approval.js';
import type { EventBus } from '../../hooks/event-bus.js';
import type { Guardrails } from '../../hooks/guardrails.js';
import type { HookMap } from '../../hooks/hook-types.js';
import type { PermissionPolicy } from '../../hooks/permission-policy.js';
import type { LanguageModel, ModelSettings } from '../../model/language-model.js';
import type { Workspace } from '../../sandbox/workspace.js';
import type { RunStore } from '../../store/run-store.js';
import type { TracingOptions } from '../../telemetry/agent-tracing.js';
import type { ContextOptions, ResolvedContextOptions } from './context-options.js';
import type { ExecutionOptions, ResolvedExecution } from './execution-options.js';
import type { RunEvent } from './run-events.js';

/** Settings shared by both agent modes (C-12). */
interface AgentConfigBase {
  /** Letters, digits, `_`, `-` and `.`; names the agent in records and telemetry. */
  name: string;
  description?: string;
  /** The model of every role; executors and compression inherit it (C-14). */
  model: LanguageModel;
  /**
   * Models tried in order after `model` when a call fails in a way another model may not: the
   * provider overloaded or failing after the retries, or a context too long for it (N-15). The
   * switch is journaled, so a takeover continues on the model the run had moved to.
   */
  fallbackModels?: readonly LanguageModel[];
  /** Model-side settings for every role: thinking on/off and effort, output limit (C-12). */
  modelSettings?: ModelSettings;
  execution?: ExecutionOptions & {
    /** Replaces the default retry classification; reads typed failure fields only. */
    isRetryable?: (failure: Failure) => boolean;
  };
  /** History, compression and context-window settings (C-1, C-2). */
  context?: ContextOptions;
  /** Values for `{{name}}` placeholders in the prompts; a run may add or override them (C-12). */
  variables?: Readonly<Record<string, string>>;
  /** When set, a run's input may be structured data and must match it, checked before anything is saved. */
  inputSchema?: z.ZodType;
  /** Hooks by trigger point, each list in the order it runs (K-4, K-8); they apply to every role. */
  hooks?: HookMap;
  /** Permission rules for tool calls and delegations (N-1); executors are bound by them too. */
  permissions?: PermissionPolicy;
  /** Input, output and tool guardrails (N-2); they fail closed. */
  guardrails?: Guardrails;
  /** Where `ask` decisions go (K-5); decisions may also come through `RunClient.decideApproval`. */
  approvals?: ApprovalPort;
  /** How long an approval may stay pending before it counts as denied; default 10 minutes. */
  approvalTimeoutMs?: number;
  /** Every event of every run of this agent, with its run identity, is published here (K-3). */
  eventBus?: EventBus<RunEvent>;
  /** OpenTelemetry GenAI spans for every run (N-3); `true` uses the global tracer. */
  telemetry?: TracingOptions | true;
  /**
   * The agent's file root and mounts (F-1): every role gets its file tools (and `run_command` when
   * it has a sandbox). A temporary run directory is removed once the run has settled in this
   * process (S-5, F-4); never after a crash or a disconnect (F-5).
   */
  workspace?: Workspace;
  /**
   * Facts kept across sessions (N-15): every role gets `remember`, `recall` and `forget`, scoped
   * to this agent and the run's `metadata.userId`. Off unless given.
   */
  memory?: MemoryOptions;
  /**
   * Code-orchestrated tool calls (N-15): every local role gets `run_script`, a JavaScript script
   * that calls the role's tools in a loop inside the sandbox; each call goes through the same
   * hooks, permissions, journal and retries as a direct call, and only the script's result enters
   * the context. `true` uses the workspace's sandbox. Off unless given.
   */
  codeOrchestration?: boolean | CodeOrchestrationOptions;
  /** Where runs are kept. Defaults to a new `MemoryRunStore`, which does not survive a crash. */
  store?: RunStore;
  /** Ownership lease of an executing process; renewed every third of it. Default 30 s. */
  leaseMs?: number;
}

/** A ReAct agent: one role that loops model → tools until it answers. */
export interface ReactAgentConfig extends AgentConfigBase {
  mode: 'react';
  /** The role's system prompt. Keep it free of per-second timestamps (N-4). */
  prompt: string;
  tools?: readonly Tool[];
  /** The role's authorised skills, from `loadSkills()` (K-1, C-13): listed in its prompt, read through `read_skill`. */
  skills?: SkillCatalog;
  /** When set, the final answer must be JSON matching it; mismatches are corrected in later loops (O-1). */
  outputSchema?: z.ZodType;
}

/** The planner role of a Plan–Executor agent (C-13). */
export interface PlannerConfig {
  prompt: string;
  /** The planner's own plain tools; it may call them in the same batch as delegations (D-4). */
  tools?: readonly Tool[];
  /** The role's authorised skills, from `loadSkills()` (K-1, C-13): listed in its prompt, read through `read_skill`. */
  skills?: SkillCatalog;
  outputSchema?: z.ZodType;
}

/** One executor role (C-13): the planner delegates tasks to it; it never delegates further (L-2). */
export interface ExecutorConfig {
  /** The name the planner's model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** When to delegate to this role; the planner's model reads it. */
  description: string;
  /** The executor's own system prompt; it never sees the planner's prompt or history (L-5). */
  prompt: string;
  tools?: readonly Tool[];
  /** The role's authorised skills, from `loadSkills()` (K-1, C-13): listed in its prompt, read through `read_skill`. */
  skills?: SkillCatalog;
  /** Task contract: the arguments the planner must send. Default: `{ task, constraints?, material? }`. */
  inputSchema?: z.ZodType;
  /** Result contract: the executor's final answer must be JSON matching it (corrected like O-1). */
  outputSchema?: z.ZodType;
  /**
   * Background role (N-7): a delegation returns the task id at once and the planner goes on; the
   * result arrives as a later input of the planner; a finished task can be resumed by id
   * (`resumeTaskId`) with its own transcript. Bound by the run's loop budget, deadline and stop;
   * the run does not end while a background task runs. Default off.
   */
  background?: boolean;
}

/** A Plan–Executor agent: a planner delegating to executor roles, joined in batches (L-2). */
export interface PlanExecutorAgentConfig extends AgentConfigBase {
  mode: 'plan-executor';
  planner: PlannerConfig;
  /** The executor roles: local ones, and remote agents (`a2aAgent()`) delegated to the same way. */
  executors: readonly (ExecutorConfig | RemoteExecutor)[];
}

/** The configuration of an agent; its `mode` is fixed for the agent's life (D-4). */
export type AgentConfig = ReactAgentConfig | PlanExecutorAgentConfig;

/** A role's configuration with defaults resolved. */
export interface ResolvedRole {
  name: string;
  description: string;
  prompt: string;
  tools: readonly Tool[];
  inputSchema?: z.ZodType;
  outputSchema?: z.ZodType;
  /** A remote executor role: each delegation is one call of this tool, not a local loop. */
  remote?: Tool;
  /** A background executor role (N-7). */
  background?: boolean;
}

/** An agent configuration with defaults resolved. */
export interface ResolvedAgentConfig {
  name: string;
  description: string;
  mode: 'react' | 'plan-executor';
  model: LanguageModel;
  /** The fallback chain after `model`, in order; empty when none (N-15). */
  fallbackModels: readonly LanguageModel[];
  modelSettings: ModelSettings | undefined;
  /** The entry role: the ReAct role (named after the agent) or the planner. */
  entry: ResolvedRole;
  executors: readonly ResolvedRole[];
  execution: ResolvedExecution;
  isRetryable: ((failure: Failure) => boolean) | undefined;
  context: ResolvedContextOptions;
  variables: Readonly<Record<string, string>>;
  inputSchema: z.ZodType | undefined;
  hooks: HookMap;
  permissions: PermissionPolicy | undefined;
  guardrails: Guardrails;
  approvals: ApprovalPort | undefined;
  approvalTimeoutMs: number;
  eventBus: EventBus<RunEvent> | undefined;
  telemetry: TracingOptions | undefined;
  workspace: Workspace | undefined;
  store: RunStore | undefined;
  leaseMs: number;
}
