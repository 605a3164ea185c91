import type { Failure } from '../../core/failure.js';
import type { Message, ToolCall, Usage } from '../../core/messages.js';
import type { RunResult } from '../../core/run-result.js';
import type { CarriedSupplement, RunVariant, SessionCheckpoint, WindowSettings } from './agent-journal.js';
import type { CallApprovalState, OperationApproval } from './approval-state.js';
import type { CallElicitationState } from './elicitation-state.js';
import type { ResolvedExecution } from './execution-options.js';

/*
 * The shape of an agent run's state as the journal folds it (`agent-state.ts` holds the fold):
 * operations, tasks and the run as a whole, and the ids that name them.
 */

/** One logical tool call of a batch, with its attempts and, once known, its result. */
export interface OperationState {
  operationId: string;
  taskId: string;
  loop: number;
  index: number;
  call: ToolCall;
  /** Attempts started so far. */
  attempts: number;
  /** An attempt was started and has neither failed nor finished: in flight, or unknown after a crash. */
  attemptOpen: boolean;
  /** When set, the next attempt may start at this time (epoch ms). */
  retryAt?: number;
  result?: { status: 'succeeded' | 'failed'; content: string; failure?: Failure };
  /** The call's gate, decided once: decision and the arguments the tool runs with (K-9). */
  gate?: {
    decision: 'allow' | 'ask' | 'deny';
    reason?: string;
    source?: string;
    effectiveArguments: unknown;
    modifiedBy: string[];
  };
  /** The approval of an `ask` gate: requested, then decided once. */
  approval?: OperationApproval;
  /** A successful attempt's raw result waiting for post-use hooks. */
  rawResult?: { attempt: number; raw: string };
  /** The call's durable notes, by key (`operation-noted`, the tool's `callJournal`). */
  notes?: Record<string, unknown>;
  /** For a call made by a script (N-15): the script's operation, the call's index, its arguments as asked. */
  script?: { operationId: string; index: number; requested: unknown };
}

/** A hook chain's saved verdict on a step, reused instead of asking the hooks again. */
export interface HookVerdict {
  decision: string;
  reason?: string;
  source?: string;
  effective?: unknown;
}

/** Where a task is in its loop (L-1); `finished` only for executor tasks, whose end is recorded. */
export type TaskPhase = 'ready' | 'calling-model' | 'in-batch' | 'answered' | 'finished';

/** A role execution (NodeTask, D-2) with its private context and position. */
export interface TaskState {
  taskId: string;
  /** The role (node) this task runs: the entry role, or an executor role. */
  role: string;
  /** For an executor task: the planner's delegation call it answers (the latest, for a resumed background task). */
  parentOperationId?: string;
  /** A background executor task (N-7): the planner does not wait for it; its result arrives as an input. */
  background?: boolean;
  /** The raw context of this task, append-only, in order (H-4: never shortened). */
  messages: Message[];
  /** Index of the first message of this run's own: earlier ones are the session history. */
  ownStart: number;
  /** Indexes of messages compression must keep verbatim: the question and supplements (H-7). */
  protectedIndexes: number[];
  /** The latest committed compression: a summary standing for raw messages `[0, coveredUpTo)`. */
  compression?: { summary: string; coveredUpTo: number };
  /** Loops this task has started (its own loop sequence, X-8). */
  loop: number;
  phase: TaskPhase;
  /** Failed model attempts in the current loop. */
  modelAttempts: number;
  /** Operation ids of the current batch, in call order. */
  batch: string[];
  /**
   * Consecutive joined batches of this task with at least one `invalid-arguments` result (not
   * JSON, or refused by the schema); a batch without one resets it. Bounded by
   * `execution.maxInvalidToolCallLoops`.
   */
  invalidCallLoops: number;
  answer?: string;
  /** For a finished executor task: what went back to the planner. */
  outcome?: { status: 'succeeded' | 'failed'; output?: string; failure?: Failure };
}

/** The state of an agent run: what recovery rebuilds by folding the journal. */
export interface AgentRunState {
  input: string;
  agentName: string;
  mode: 'react' | 'plan-executor';
  entryRole: string;
  execution: ResolvedExecution;
  deadlineAt: number;
  window: WindowSettings;
  variables: Record<string, string>;
  /** The run's session note (N-15). */
  sessionNote?: string;
  /** The variant group of a run that regenerates an earlier answer (N-15). */
  variant?: RunVariant;
  /** The replaced variant's file changes were rolled back (N-6). */
  variantFilesRestored?: boolean;
  tasks: Map<string, TaskState>;
  operations: Map<string, OperationState>;
  /**
   * Approvals a running call asked for itself (`ToolExecutionContext.requestApproval`: a remote
   * agent's question, say), by approval id `<operationId>#<key>`; a gate's approval lives on its
   * operation instead.
   */
  callApprovals: Map<string, CallApprovalState>;
  /** MCP elicitations the run's calls asked its user (ADR 0038), by elicitation id. */
  elicitations: Map<string, CallElicitationState>;
  loopsUsed: number;
  usage: Usage;
  /** Which model of the fallback chain the run calls now (N-15): 0 is the agent's `model`. */
  modelIndex: number;
  /** Usage by `provider/modelId`, kept for agents with fallback models (N-15). */
  usageByModel: Map<string, Usage>;
  /** Every supplement the run accepted, in order, and whether it reached the entry role. */
  supplements: Map<string, { text: string; consumed: boolean }>;
  /** Supplements carried in from earlier runs (S-4). */
  carried: CarriedSupplement[];
  /** The session checkpoint this run made of its history (ADR 0012), once committed. */
  checkpoint?: SessionCheckpoint;
  /** A checkpoint was started and not committed: a resumed run redoes it from the same input. */
  checkpointStarted?: boolean;
  /** Saved hook verdicts by subject (`input`, `stop:<task>:<loop>`, `subagent-start:<operation>` …). */
  hookVerdicts: Map<string, HookVerdict>;
  /** Set once someone asked the run to stop (S-5); the owner ends it `user-stop`. */
  stopRequested?: { reason?: string; requestedBy: string };
  result?: RunResult;
}

/** The id of the entry task (the ReAct role, or the planner). */
export const ENTRY_TASK_ID = 'entry';

/** The stable id of a logical call: the same across retries, recovery and takeover. */
export function operationIdOf(taskId: string, loop: number, index: number): string {
  return `${taskId}/${loop}/${index}`;
}
