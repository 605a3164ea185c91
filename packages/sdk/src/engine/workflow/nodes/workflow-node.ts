import type { CallJournal } from '../../../capabilities/tools/tool.js';
import type { Failure } from '../../../core/failure.js';
import type { Usage } from '../../../core/messages.js';
import type { RunStatus, TerminalReason } from '../../../core/run-result.js';
import type { RunEvent } from '../../agent/run-events.js';
import type { StateDefinition } from '../channels/state-fields.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import type { Send } from '../graph/send.js';
import type { InputAnswer } from '../input/input-answer.js';

/** The stable reference from a workflow task to the agent run it invoked. */
export interface AgentInvocationReference {
  runId: string;
  sessionId: string;
  /**
   * The share of the root run's loop budget given to the inner run when it was invoked (W-6):
   * kept, so a next owner that reattaches before the inner run started gives it the same budget.
   */
  loopBudget?: number;
}

/** What a node's execution receives: its task's identity, the state, limits and signals. */
export interface NodeInvocation {
  /** The workflow run. */
  runId: string;
  sessionId: string;
  /** The deterministic task id: the same when a resumed run plans the same superstep again. */
  taskId: string;
  node: string;
  step: number;
  /** The workflow's state fields (an output binding writes through the field's reducer). */
  fields: StateDefinition;
  /** The state as it was when the superstep began (read-only). */
  state: Readonly<Record<string, unknown>>;
  /** For a task made by `send()`: the payload, used instead of the node's input binding. */
  payload?: { value: unknown };
  /** Aborted when the run stops admitting work: user stop, deadline, lost ownership. */
  signal: AbortSignal;
  /** Aborted only when calls in flight must be cut: deadline or lost ownership (not a user stop). */
  hardSignal: AbortSignal;
  /** Aborted only by a user stop: the signal handed to inner agent runs (W-6). */
  stopSignal: AbortSignal;
  /** The root run's deadline (epoch ms), never restarted. */
  deadlineAt: number;
  /** Loops an agent invoked by this task may use, or `undefined` for no workflow-level budget. */
  loopBudget: number | undefined;
  /** 1-based attempt number of this task (a retried task keeps its task id, X-5). */
  attempt: number;
  /** The task's call notes, read and written durably by its tool (`ToolExecutionContext.callJournal`). */
  callJournal: CallJournal;
  /**
   * The run's durability mode (N-10). In `exit` mode nothing is saved before the end, so a crash
   * runs the tasks again anyway and a node writes no note of its own before a call.
   */
  durability: 'sync' | 'async' | 'exit';
  /** Saved answers to this task's `interrupt()` calls, by interrupt id. */
  resumeValues: ReadonlyMap<string, unknown>;
  /** The agent run an earlier execution of this task invoked, if it was recorded. */
  agentRun: AgentInvocationReference | undefined;
  /** Records the agent run this task invokes, before it starts. */
  recordAgentRun(reference: AgentInvocationReference): Promise<void>;
  /** Forwards an inner agent's lifecycle event to the workflow's events. */
  emitAgentEvent(event: RunEvent): void;
  now(): number;
  /** Reads and applies what others appended to the run since (an answer to an input node). */
  syncJournal?(): Promise<void>;
  /**
   * Records the owner's answer to an input node (its timeout outcome) unless the journal already
   * holds one: of the owner's answer and a person's, the first in the journal is taken.
   */
  recordAnswer?(answer: InputAnswer): Promise<void>;
}

/** What a node's execution produced: a state update for the bound fields, and what it cost. */
export interface NodeExecution {
  update: Record<string, unknown>;
  /** Business loops charged by an agent node's inner run (charged to the workflow run, W-6). */
  loops?: number;
  usage?: Usage;
  /** Where the node's command sends the run next: declared targets and sends (W-3). */
  goto?: readonly (string | Send)[];
  /**
   * The node vouches that each value of `update` already satisfies its field's update schema:
   * the SDK's own team steps, which build their writes from typed values and check whatever a
   * user function returned, set it so that a turn's writes are not parsed again (each team turn
   * paid a full schema parse of its transcript, events and counters). The fields must still exist.
   */
  checked?: boolean;
}

/** Why a workflow task failed, as a typed, serialisable value. */
export interface WorkflowTaskFailure {
  node: string;
  taskId: string;
  kind:
    | 'tool-failed'
    | 'invalid-arguments'
    | 'invalid-result'
    | 'agent-failed'
    | 'invalid-state-update'
    | 'undeclared-route'
    | 'write-conflict'
    | 'loop-limit-reached'
    | 'node-error';
  message: string;
  /** The typed failure of the tool attempt (X-5 classification fields). */
  failure?: Failure;
  /** For an agent node: the inner run and how it ended. */
  agentRun?: { runId: string; status: RunStatus; reason?: TerminalReason };
}

/** Thrown by a node to fail its task with a typed reason (a business failure, not control flow). */
export class NodeFailure extends Error {
  readonly detail: Omit<WorkflowTaskFailure, 'node' | 'taskId'>;
  /** Loops the failed execution used (charged all the same). */
  readonly loops: number;

  constructor(detail: Omit<WorkflowTaskFailure, 'node' | 'taskId'>, loops = 0) {
    super(detail.message);
    this.name = 'NodeFailure';
    this.detail = detail;
    this.loops = loops;
  }

  /** Whether `value` is a `NodeFailure`. */
  static isInstance(value: unknown): value is NodeFailure {
    return value instanceof NodeFailure;
  }
}

/** What a node's validation knows about its place in the graph. */
export interface NodeValidationContext {
  node: string;
  state: StateDefinition;
  /** Whether only `send()` reaches the node (so its input is the payload, not a binding). */
  onlySent: boolean;
}

/**
 * A node of the workflow graph (W-1): a capability (a tool) or a complete agent. It turns the
 * state (or a send payload) into a call through its input binding, and the call's result into a
 * state update through its output binding. The engine owns planning, saving, limits and recovery.
 */
export interface WorkflowNode {
  readonly kind: 'capability' | 'agent' | 'function' | 'input';
  execute(invocation: NodeInvocation): Promise<NodeExecution>;
  /** Checks the node's bindings against the state before the graph may run (W-4). */
  validate(context: NodeValidationContext): WorkflowIssue[];
  /** What identifies the node's configuration in the graph's fingerprint. */
  describe(): string;
  /** The state fields the node's output binding writes, when they are known before the run. */
  writtenFields?(): readonly string[];
}
