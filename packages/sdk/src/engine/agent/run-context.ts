import type { Tool } from '../../capabilities/tools/tool.js';
import type { RetryPolicy } from '../../core/retry-policy.js';
import type { LanguageModel, ToolDefinition } from '../../model/language-model.js';
import type { DurableRun } from '../run/durable-run.js';
import type { RunControl } from '../run/run-control.js';
import type { AgentRunState } from './agent-state.js';
import type { RunEvent } from './run-events.js';

/** The role configuration a task runs with: prompt, tools and their fixed-order definitions. */
export interface RoleDefinition {
  prompt: string;
  tools: ReadonlyMap<string, Tool>;
  /** Tool definitions in a fixed order, identical for every call of the run (N-4). */
  toolDefinitions: readonly ToolDefinition[];
}

/** Everything the loop steps of one run share; built once per execution in this process. */
export interface RunContext {
  runId: string;
  sessionId: string;
  model: LanguageModel;
  durable: DurableRun<AgentRunState>;
  control: RunControl;
  retry: RetryPolicy;
  emit: (event: RunEvent) => void;
  now: () => number;
}
