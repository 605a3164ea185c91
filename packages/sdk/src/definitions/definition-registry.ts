import type { FactStore } from '../capabilities/memory/index.js';
import type { SkillCatalog } from '../capabilities/skills/load-skills.js';
import type { Tool } from '../capabilities/tools/tool.js';
import type { Failure } from '../core/failure.js';
import type { Agent } from '../engine/agent/agent.js';
import type { TokenCounter } from '../engine/agent/context-options.js';
import type { RunEvent } from '../engine/agent/run-events.js';
import type { Send } from '../engine/workflow/graph/graph-definition.js';
import type { ApprovalPort } from '../hooks/approval.js';
import type { EventBus } from '../hooks/event-bus.js';
import type { Guardrail, ToolGuardrail } from '../hooks/guardrails.js';
import type { Hook } from '../hooks/hook-types.js';
import type { LanguageModel } from '../model/language-model.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Workspace } from '../sandbox/workspace.js';
import type { RunStore } from '../store/run-store.js';
import type { Team } from '../teams/team.js';
import type { SpeakerFunction } from '../teams/topologies/group-chat.js';
import type { HistoryFilter } from '../teams/topologies/handoff.js';
import type { TracingOptions } from '../telemetry/agent-tracing.js';

/** The state a workflow's named functions read. */
export type WorkflowStateView = Readonly<Record<string, unknown>>;

/** A named merge reducer of a workflow state field (`reducer: "merge"`, `merge: "<name>"`). */
export interface NamedReducer {
  /** The field's value before any write. */
  initial(): unknown;
  /** The new value after one update; pure, must not change `current`. */
  merge(current: unknown, update: unknown): unknown;
}

/**
 * What the names in a definition stand for, and the host's live objects. A definition is data: it
 * names its model, tools, skills, MCP servers, hooks, guardrails, agents and workflow functions;
 * the registry holds them. Only what a definition names is taken from it; a name it lacks is a
 * problem of the definition (`InvalidDefinitionError`).
 */
export interface DefinitionRegistry {
  /** Models by name (`"model": "<name>"`). */
  models?: Readonly<Record<string, LanguageModel>>;
  /** Tools by name: a map, or a list keyed by each tool's own name. */
  tools?: Readonly<Record<string, Tool>> | readonly Tool[];
  /** The host's skill catalogue (from `loadSkills()`); a role gets only the skills it names. */
  skills?: SkillCatalog;
  /** The tools of connected MCP servers, by server name (from `connectMcpServer(...).tools`). */
  mcpServers?: Readonly<Record<string, readonly Tool[]>>;
  /** Hooks by name; a definition places them under a trigger point. */
  hooks?: Readonly<Record<string, Hook>>;
  /** Guardrails by name: text guardrails for `input`/`output`, call guardrails for `tool`. */
  guardrails?: Readonly<Record<string, Guardrail | ToolGuardrail>>;
  /** Agents by name, for workflow agent nodes that do not define their agent inline. */
  agents?: Readonly<Record<string, Agent>>;
  /**
   * Teams by name, for workflow team nodes (N-12): each is embedded in the workflow (its select and
   * turn steps become nodes of the workflow, its state fields prefixed with the node's name).
   */
  teams?: Readonly<Record<string, Team>>;
  /** Route functions by name: given the state, the target(s) to take among the route's declared targets. */
  routes?: Readonly<Record<string, (state: WorkflowStateView) => string | readonly string[]>>;
  /** Fan-out functions by name: given the state, the `send(node, payload)` requests. */
  fanOuts?: Readonly<Record<string, (state: WorkflowStateView) => readonly Send[]>>;
  /** Loop conditions by name, for loops whose `while` names a function. */
  conditions?: Readonly<Record<string, (state: WorkflowStateView) => boolean>>;
  /** Agent-node input functions by name: the agent's question from the state. */
  inputs?: Readonly<Record<string, (state: WorkflowStateView) => string>>;
  /** Merge reducers by name, for state fields with `reducer: "merge"`. */
  reducers?: Readonly<Record<string, NamedReducer>>;
  /** Speaker-selection functions by name, for group chats whose speaker is `{ kind: "function" }`. */
  speakers?: Readonly<Record<string, SpeakerFunction>>;
  /** History filters by name, for handoffs whose `historyFilter` is `{ function: "<name>" }`. */
  historyFilters?: Readonly<Record<string, HistoryFilter>>;

  /** Where runs are kept (the workflow and its inline agents share it, R-6). Default: a new `MemoryRunStore`. */
  store?: RunStore;
  /** Where `ask` decisions go (K-5). */
  approvals?: ApprovalPort;
  /** Every run event is published here (K-3). */
  eventBus?: EventBus<RunEvent>;
  /** The agent's file root and mounts (F-1). */
  workspace?: Workspace;
  /** Where code-orchestrated scripts run (`codeOrchestration`, N-15); default the workspace's sandbox. */
  sandbox?: Sandbox;
  /** Where the facts of agents whose definition switches `memory` on are kept (N-15). */
  factStore?: FactStore;
  /** OpenTelemetry spans (N-3). */
  telemetry?: TracingOptions | true;
  /** Replaces the default retry classification. */
  isRetryable?: (failure: Failure) => boolean;
  /** Replaces the default token estimate (C-2). */
  countTokens?: TokenCounter;
}

/** The tools of a registry by name. */
export function toolsByName(registry: DefinitionRegistry): ReadonlyMap<string, Tool> {
  const tools = registry.tools ?? {};
  if (Array.isArray(tools)) return new Map((tools as readonly Tool[]).map((item) => [item.name, item]));
  return new Map(Object.entries(tools as Readonly<Record<string, Tool>>));
}
