import type { Failure } from './failure.js';
import type { Usage } from './messages.js';

/** How a run ended. */
export type RunStatus = 'succeeded' | 'failed' | 'stopped';

/**
 * Why a run ended without success (S-11): typed values, never message text. `stopped` runs have
 * `user-stop`; failed runs have one of the others.
 */
export type TerminalReason =
  | 'user-stop'
  | 'run-timeout'
  | 'loop-budget-exhausted'
  /**
   * The model's tool calls were invalid (arguments not JSON, or refused by the schema) in more
   * consecutive loops than `execution.maxInvalidToolCallLoops`; each was given back to it first.
   */
  | 'invalid-tool-calls'
  | 'model-failed'
  | 'compression-failed'
  | 'over-window-after-compression'
  /** A hook or guardrail refused the run's input or its final answer (K-5, N-2). */
  | 'blocked'
  /** A workflow task failed; the failure is in the workflow's journal. */
  | 'node-failed'
  /** A workflow reached its step limit. */
  | 'step-limit-exceeded'
  /** Two tasks of one workflow superstep wrote a single-value field that refuses conflicts. */
  | 'write-conflict'
  /** A workflow loop with `onLimit: 'fail'` reached its limit. */
  | 'loop-limit-reached';

/** The outcome of a run, as stored with its terminal record and returned by `run.result()`. */
export interface RunResult {
  runId: string;
  sessionId: string;
  status: RunStatus;
  /** The final answer; present only when `status` is `succeeded`. */
  output?: string;
  /** Present whenever `status` is not `succeeded` (S-9: a failure always has a reason). */
  reason?: TerminalReason;
  /** The failure behind `model-failed` and similar reasons. */
  failure?: Failure;
  /** Business loops charged to the run, across every role. */
  loops: number;
  usage: Usage;
  /**
   * The model calls' usage by `provider/modelId`, for an agent with fallback models (N-15);
   * compression is counted in `usage` only.
   */
  usageByModel?: Record<string, Usage>;
}
