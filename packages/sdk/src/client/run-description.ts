import type { Failure } from '../core/failure.js';
import type { Usage } from '../core/messages.js';
import type { RunResult, TerminalReason } from '../core/run-result.js';
import type { PendingInput } from '../engine/workflow/input/input-requests.js';
import type { RunKind, RunMetadata, StoredRunStatus } from '../store/run-store.js';
import type { TeamRunDescription } from './describe-team-run.js';

/**
 * What `RunClient.describeRun` answers: a run as any process can see it from the store, with the
 * inner structure a run view needs (P-10). Built from the run's row and its journal only.
 */
export interface RunDescription {
  runId: string;
  sessionId: string;
  kind: RunKind;
  /** The agent's or workflow's name. */
  name: string;
  /** `pending` until an executor takes it; then `running` until it ends. */
  status: Exclude<StoredRunStatus, 'deleted'>;
  /** Why a finished run ended (S-11). */
  reason?: TerminalReason;
  result?: RunResult;
  loops: number;
  usage: Usage;
  metadata: RunMetadata;
  /** The input as recorded once; undefined while no record of it is readable. */
  input?: unknown;
  /** The current owner, or null when no executor holds the run. */
  owner: { ownerId: string; epoch: number; leaseExpiresAt: number; live: boolean } | null;
  /** A stop someone asked for, honoured by whoever owns the run (S-5). */
  stopRequest?: { reason?: string; requestedBy: string };
  createdAt: number;
  updatedAt: number;
  /** Sequence of the last journal entry: read events after it to follow on. */
  lastSequence: number;
  /** The inner structure of an agent run that has started. */
  agent?: AgentRunDescription;
  /** The inputs an unfinished workflow run waits for (issue 36): asked, not yet answered. */
  pendingInputs?: PendingInput[];
  /** The coordination of a team's run (N-12): owner, turns, ledger, board, ending, events. */
  team?: TeamRunDescription;
}

/** The inside of an agent run (P-10). */
export interface AgentRunDescription {
  mode: 'react' | 'plan-executor';
  entryRole: string;
  deadlineAt: number;
  maxLoops: number;
  /** The entry task and, for Plan–Executor, one executor task per delegation, in creation order. */
  tasks: TaskDescription[];
  /** Every tool call (and delegation) with its attempts; `unknown` when its outcome was not saved. */
  operations: OperationDescription[];
  approvals: ApprovalDescription[];
  /** Questions the run's MCP servers asked its user (ADR 0038), oldest first. */
  elicitations: ElicitationDescription[];
  supplements: SupplementDescription[];
  compressions: CompressionDescription[];
  /** Values a hook changed: what was proposed and what took effect (K-9). */
  hookChanges: HookChangeDescription[];
}

export interface TaskDescription {
  taskId: string;
  role: string;
  parentTaskId?: string;
  /** Loops this task has started. */
  loop: number;
  phase: 'ready' | 'calling-model' | 'in-batch' | 'answered' | 'finished';
  /** The operation ids of its current (or last) batch, in call order. */
  batch: string[];
  outcome?: { status: 'succeeded' | 'failed'; output?: string; failure?: Failure };
}

export type OperationStatus = 'pending' | 'waiting-approval' | 'running' | 'retrying' | 'unknown' | 'succeeded' | 'failed';

export interface OperationDescription {
  operationId: string;
  taskId: string;
  loop: number;
  toolName: string;
  /** The arguments the tool runs with (after PreToolUse hooks, K-9). */
  arguments: unknown;
  attempts: number;
  /**
   * `running` while an attempt is open under a live owner; `unknown` when an attempt was started
   * and no outcome was saved and no live owner holds the run (the next owner records it, X-7).
   */
  status: OperationStatus;
  retryAt?: number;
  content?: string;
  failure?: Failure;
  gate?: { decision: 'allow' | 'ask' | 'deny'; reason?: string; source?: string };
}

export interface ApprovalDescription {
  approvalId: string;
  toolName: string;
  arguments: unknown;
  reason: string;
  expiresAt?: number;
  decision?: { approved: boolean; reason?: string; decidedBy: string };
}

/**
 * An MCP server's question to the run's user (ADR 0038). `pending`: the run waits for a person's
 * answer (`RunClient.answerElicitation`); `answered`: an answer was taken (a person's, or the
 * timeout's `cancel`); `ended`: the asking call ended first (after a crash its outcome is `unknown`, X-7).
 */
export interface ElicitationDescription {
  elicitationId: string;
  operationId: string;
  toolName: string;
  server: string;
  message: string;
  mode: 'form' | 'url';
  requestedSchema?: Record<string, unknown>;
  url?: string;
  expiresAt: number;
  status: 'pending' | 'answered' | 'ended';
  answer?: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown>; answeredBy: string };
}

export interface SupplementDescription {
  supplementId: string;
  text: string;
  /** `carried-over`: the run ended before its entry role saw it; the session's next run gets it once (S-4). */
  status: 'accepted' | 'consumed' | 'carried-over';
  /** Set for a supplement this run received from an earlier run. */
  carriedFrom?: string;
}

export interface CompressionDescription {
  taskId: string;
  /** Raw messages `[0, coveredUpTo)` of the task that the summary stands for. */
  coveredUpTo: number;
  usage: Usage;
}

export interface HookChangeDescription {
  subject: string;
  source?: string;
  raw: unknown;
  effective: unknown;
}
