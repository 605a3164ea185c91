import type { RetryPolicy } from '../../core/retry-policy.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { RunMetadata, RunStore } from '../../store/run-store.js';
import type { WindowSettings } from './agent-journal.js';
import type { ContextFeatures } from './context-features/index.js';
import type { TokenCounter } from './context-options.js';
import type { ResolvedExecution } from './execution-options.js';
import type { Governance } from './governance/governance.js';
import type { Node } from './nodes/node.js';

/** What an agent contributes to one execution of a run. */
export interface RunnableAgent {
  name: string;
  /** Role names, entry role first: with `name` and `mode`, the identity recorded in the run. */
  roles: readonly string[];
  model: LanguageModel;
  /** Models tried in order after `model` (N-15); empty when none. */
  fallbackModels: readonly LanguageModel[];
  mode: 'react' | 'plan-executor';
  store: RunStore;
  /** The node of the entry task: the ReAct role, or the planner. */
  entry: Node;
  /** Execution settings for a run created now; a resumed run uses its stored snapshot (C-15). */
  execution: ResolvedExecution;
  isRetryable?: RetryPolicy['isRetryable'];
  leaseMs: number;
  /** How many finished runs of the session a new run sees in full (C-1). */
  historyRuns: number;
  /** Context-window settings for a run created now (C-2). */
  window: WindowSettings;
  /** Counts tokens of a request; the default estimates. */
  countTokens: TokenCounter;
  /** Extra instructions for the compression agent (H-6). */
  compressionPrompt: string | undefined;
  governance: Governance;
  /** User instructions, context entries and message shaping (N-15). */
  contextFeatures: ContextFeatures;
  /** Expands a user command in a typed input (N-15); `undefined` when the input is none. */
  expandCommand: (input: string) => { text: string; command: string } | undefined;
  /**
   * Rolls back the file changes a replaced variant made (N-6, N-15); set when the agent has a
   * workspace. Answers the restored and the failed paths.
   */
  restoreVariantFiles?: (scope: { sessionId: string; runId: string }) => Promise<{ restored: string[]; failed: string[] }>;
}

/** Identity and input of one `run` call. */
export interface RunRequest {
  runId: string;
  sessionId: string;
  input?: string;
  limits?: RunLimits;
  /** Prompt variables, complete (checked by `Agent.run`). */
  variables?: Record<string, string>;
  /** Host labels stored on a run created now (a release id …). */
  metadata?: RunMetadata;
  /** The session's note, appended at the end of the entry role's context (N-15); kept with the run. */
  sessionNote?: string;
  /** The user command the input was expanded from (N-15), for the record. */
  command?: string;
  /** The run whose answer this new run regenerates as a new variant (N-15); its input is the default. */
  regenerate?: string;
}

/**
 * Limits a caller imposes on a new run on top of the agent's own settings, such as a workflow
 * passing down its root run's remaining budget and deadline (W-6). They can only tighten: the
 * run takes the smaller value. Stored with the run, so a resume keeps them.
 */
export interface RunLimits {
  /** Epoch milliseconds: the run ends `run-timeout` no later than this. */
  deadlineAt?: number;
  /** At most this many loops, across every role of the run. */
  maxLoops?: number;
}
