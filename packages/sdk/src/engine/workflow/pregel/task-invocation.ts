import type { CallJournal } from '../../../capabilities/tools/tool.js';
import type { RunEvent } from '../../agent/run-events.js';
import type { RunControl } from '../../run/run-control.js';
import type { StateDefinition } from '../channels/state-fields.js';
import type { CompiledGraph } from '../graph/compile-graph.js';
import type { InputAnswer } from '../input/input-answer.js';
import { INPUT_NOTE_KEY, type InputRequest } from '../input/input-requests.js';
import type { AgentInvocationReference, NodeInvocation } from '../nodes/workflow-node.js';
import type { WorkflowEvent } from '../workflow-events.js';
import type { Recorder } from './recorder.js';
import type { PlannedTask, WorkflowRunState } from './workflow-state.js';

/** What an invocation reads of its run (the runner's `EngineContext` is one). */
export interface InvocationContext {
  graph: CompiledGraph;
  state: WorkflowRunState;
  runId: string;
  sessionId: string;
  control: RunControl;
  /** Aborted only by the deadline or a lost ownership: it cuts calls in flight (a stop lets them settle). */
  hardSignal: AbortSignal;
  /** Aborted only by a user stop: what reaches inner agent runs. */
  stopSignal: AbortSignal;
  recorder: Recorder;
  emit: (event: WorkflowEvent) => void;
  now: () => number;
  /** Reads and applies the entries others appended (answers to input nodes). */
  syncJournal?: () => Promise<void>;
  /** Records an input's answer by the owner unless one is in the journal already (issue 36). */
  recordAnswer?: (taskId: string, answer: InputAnswer) => Promise<void>;
}

/** A failed write of the run's journal made on a node's behalf: it fails the run, not the node. */
export class RecordingFailure {
  readonly cause: unknown;

  constructor(cause: unknown) {
    this.cause = cause;
  }
}

/**
 * What one attempt of a task receives (`NodeInvocation`), as an instance of one class: its data
 * are fields set in one order, its journal operations are methods, and what few nodes use is made
 * on first use (the call journal, the answer recorder, the stop signal). It was an object literal
 * with a getter and five closures per attempt, about 2.3 KB of garbage per task (issue 31: a
 * team's turn is one task, and most nodes use none of these operations).
 *
 * Nodes call the operations as methods (`invocation.recordAgentRun(…)`); `recordAnswer` and
 * `syncJournal`, which an input node takes out of the invocation, are functions of their own.
 */
export class TaskInvocation implements NodeInvocation {
  readonly runId: string;
  readonly sessionId: string;
  readonly taskId: string;
  readonly node: string;
  readonly step: number;
  readonly attempt: number;
  readonly fields: StateDefinition;
  readonly state: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  readonly hardSignal: AbortSignal;
  readonly deadlineAt: number;
  readonly loopBudget: number | undefined;
  readonly resumeValues: ReadonlyMap<string, unknown>;
  readonly durability: 'sync' | 'async' | 'exit';
  readonly agentRun: AgentInvocationReference | undefined;
  readonly now: () => number;
  readonly payload: { value: unknown } | undefined;
  readonly syncJournal: (() => Promise<void>) | undefined;
  private readonly context: InvocationContext;
  private journal: CallJournal | undefined;

  constructor(context: InvocationContext, task: PlannedTask, step: number, attempt: number, loopBudget: number | undefined) {
    const state = context.state;
    this.runId = context.runId;
    this.sessionId = context.sessionId;
    this.taskId = task.id;
    this.node = task.node;
    this.step = step;
    this.attempt = attempt;
    this.fields = context.graph.definition.state;
    this.state = state.values;
    this.signal = context.control.signal;
    this.hardSignal = context.hardSignal;
    this.deadlineAt = state.deadlineAt;
    this.loopBudget = loopBudget;
    this.resumeValues = state.resumeValues;
    this.durability = state.durability;
    this.agentRun = state.agentRuns.get(task.id);
    this.now = context.now;
    this.payload = task.kind === 'push' ? { value: task.payload } : undefined;
    this.syncJournal = context.syncJournal;
    this.context = context;
    this.journal = undefined;
  }

  /** Read only by agent nodes: the run's stop signal is made on first use (see `lazyStopSignal`). */
  get stopSignal(): AbortSignal {
    return this.context.stopSignal;
  }

  /** The task's call notes: read from the run's state, written durably before the call goes on. */
  get callJournal(): CallJournal {
    this.journal ??= {
      read: (key) => this.context.state.notes.get(this.taskId)?.[key],
      write: (key, value) => this.writeNote(key, value),
    };
    return this.journal;
  }

  /** Records the owner's answer to an input node unless the journal holds one (absent outside a run that can). */
  get recordAnswer(): ((answer: InputAnswer) => Promise<void>) | undefined {
    const record = this.context.recordAnswer;
    if (!record) return undefined;
    const taskId = this.taskId;
    return (answer) => record(taskId, answer);
  }

  recordAgentRun(reference: AgentInvocationReference): Promise<void> {
    const { recorder, emit, runId } = this.context;
    const { step, taskId, node, loopBudget } = this;
    return recorder
      .record([
        {
          type: 'agent-invoked',
          taskId,
          data:
            loopBudget !== undefined
              ? { step, runId: reference.runId, sessionId: reference.sessionId, loopBudget }
              : { step, runId: reference.runId, sessionId: reference.sessionId },
        },
      ])
      .then(() =>
        emit({
          type: 'agent-invoke',
          runId,
          step,
          taskId,
          node,
          agentRunId: reference.runId,
          agentSessionId: reference.sessionId,
        }),
      )
      .catch((error: unknown) => {
        throw new RecordingFailure(error);
      });
  }

  emitAgentEvent(event: RunEvent): void {
    this.context.emit({ type: 'agent-event', runId: this.runId, taskId: this.taskId, node: this.node, event });
  }

  private writeNote(key: string, value: unknown): Promise<void> {
    const { recorder, emit, runId } = this.context;
    const { step, taskId, node } = this;
    return recorder
      .recordDurably([{ type: 'task-noted', taskId, data: { step, key, value } }])
      .then(() => {
        // An input node's saved question: the run waits for a person from here (issue 36).
        if (key !== INPUT_NOTE_KEY) return;
        const request = value as InputRequest;
        const interrupts = [{ id: request.interruptId, taskId, node, value }];
        emit({ type: 'workflow-interrupt', runId, interrupts });
      })
      .catch((error: unknown) => {
        throw new RecordingFailure(error);
      });
  }
}
