import type { z } from 'zod';
import type { Tool } from '../../capabilities/tools/tool.js';
import type { RetryPolicy } from '../../core/retry-policy.js';
import type { LanguageModel, ModelSettings, ToolDefinition } from '../../model/language-model.js';
import type { DurableRun } from '../run/durable-run.js';
import type { RunControl } from '../run/run-control.js';
import type { AgentJournalRecord } from './agent-journal.js';
import type { AgentRunState } from './agent-state.js';
import type { ContextFeatures } from './context-features/index.js';
import type { TokenCounter } from './context-options.js';
import type { Governance } from './governance/governance.js';
import type { RunEventData } from './run-events.js';
import type { HistoryParts } from './session/history-parts.js';

/**
 * The configuration one role runs with (C-13): its prompt, its own tools, the definitions the
 * model sees in a fixed order (N-4) and, optionally, the schema its final answer must match.
 */
export interface RoleDefinition {
  /** The role's name: the agent's name for ReAct, `planner`, or an executor role's name. */
  name: string;
  prompt: string;
  tools: ReadonlyMap<string, Tool>;
  /** Tool (and delegation) definitions in a fixed order, identical for every call of the run. */
  toolDefinitions: readonly ToolDefinition[];
  /** When set, the final answer must be JSON matching it; otherwise it is corrected (O-1). */
  outputSchema?: z.ZodType;
  /** Model-side settings sent with every request of this role (thinking, output limit). */
  settings?: ModelSettings;
}

/** Everything the loop steps of one run share; built once per execution in this process. */
export interface RunContext {
  runId: string;
  sessionId: string;
  /** The run's labels (its record's `metadata`), handed to tools (N-15). */
  metadata: Readonly<Record<string, string>>;
  model: LanguageModel;
  /** The fallback chain after `model` (N-15): the run's current model is `modelAt(state.modelIndex)`. */
  fallbackModels: readonly LanguageModel[];
  durable: DurableRun<AgentRunState, AgentJournalRecord>;
  control: RunControl;
  retry: RetryPolicy;
  /** Emits a live-only event; it is stamped with the sequence of the last durable entry. */
  emit: (event: RunEventData) => void;
  now: () => number;
  countTokens: TokenCounter;
  compressionPrompt: string | undefined;
  /** User instructions, context entries and message shaping (N-15). */
  contextFeatures: ContextFeatures;
  /** Hooks, permission policy, guardrails and approvals of the agent (K-4…K-10). */
  governance: Governance;
  /** When the run was created (its row): a session checkpoint covers only runs created before it. */
  createdAt: number;
  /** How the run's history is made up, for a session checkpoint (ADR 0012); absent for format 1. */
  history?: HistoryParts;
}
