import { raceAbort, subscribeToAbort } from '../../../core/abort-subscription.js';
import { abortableSleep } from '../../../core/abortable-sleep.js';
import { RunDetachedError, RunOwnedElsewhereError } from '../../../core/errors/index.js';
import type { RunResult } from '../../../core/run-result.js';
import type { Agent } from '../../agent/agent.js';
import type { RunLimits } from '../../agent/execute-run.js';
import type { RunEvent } from '../../agent/run-events.js';
import { RunInterrupt } from '../../run/run-control.js';
import type { FieldName, StateDefinition, StateOf } from '../channels/state-fields.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import { TEXT_SCHEMA } from '../graph/contracts.js';
import { bindOutput, type OutputBinding, validateOutputBinding } from './output-binding.js';
import {
  type AgentInvocationReference,
  type NodeExecution,
  NodeFailure,
  type NodeInvocation,
  type NodeValidationContext,
  type WorkflowNode,
} from './workflow-node.js';

/** How an agent node connects a complete agent to the state (W-2). */
export interface AgentBinding<Definition extends StateDefinition> {
  /**
   * The agent's question: a state field (text as is, anything else as JSON) or a function of the
   * state. A task made by `send()` takes the send's payload instead.
   */
  input?: FieldName<Definition> | ((state: StateOf<Definition>) => string);
  /** Where the agent's final answer (text) goes: a field, or a function returning an update. */
  output?: OutputBinding<Definition, string>;
  /**
   * The session of the inner runs. Default: a session of their own per invocation, so that no
   * data reaches the agent except through its input (W-2); set one to give the agent history.
   */
  sessionId?: string;
}

/** The inner run id of the agent invocation made by task `taskId` of workflow run `runId` (R-6). */
export function innerRunIdOf(runId: string, taskId: string): string {
  return `${runId}/${taskId}`;
}

/**
 * A workflow node that runs a complete agent, ReAct or Plan–Executor (W-1), as one agent
 * invocation with a stable identity: its inner run id is derived from the workflow run id and
 * the task id, and recorded in the workflow's journal before the agent starts. Resuming the
 * workflow reattaches to that same inner run (R-6): a finished agent is never run again (its
 * stored result is read back, even if the workflow had not consumed it yet), an unfinished one
 * continues from its own journal, and no new root run is created.
 *
 * The agent keeps its own model, capabilities, context and execution settings (its parallel
 * switch included: outer parallelism does not switch on inner parallelism), but it obeys the
 * root run's deadline, stop and remaining loop budget (W-6). Give the agent the workflow's store
 * so that both scopes live in one store (R-6).
 */
export class AgentNode implements WorkflowNode {
  readonly kind = 'agent' as const;
  readonly agent: Agent;
  private readonly binding: AgentBinding<StateDefinition>;

  constructor(agent: Agent, binding: AgentBinding<StateDefinition> = {}) {
    this.agent = agent;
    this.binding = binding;
  }

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    const reference = invocation.agentRun ?? {
      runId: innerRunIdOf(invocation.runId, invocation.taskId),
      sessionId: this.binding.sessionId ?? innerRunIdOf(invocation.runId, invocation.taskId),
    };
    const input = invocation.payload ? textOf(invocation.payload.value) : this.inputOf(invocation.state);
    if (!invocation.agentRun) {
      if (input === '') {
        throw new NodeFailure({ kind: 'invalid-arguments', message: `agent node "${invocation.node}" got an empty input` });
      }
      await invocation.recordAgentRun(reference);
    }
    const limits: RunLimits = { deadlineAt: invocation.deadlineAt };
    if (invocation.loopBudget !== undefined) limits.maxLoops = invocation.loopBudget;
    const result = await this.runInner(invocation, reference, input, limits);
    if (result.status === 'succeeded') {
      return {
        update: bindOutput(this.binding.output, result.output ?? '', invocation),
        loops: result.loops,
        usage: result.usage,
      };
    }
    if (invocation.signal.aborted) throw invocation.signal.reason;
    // The inner run met the root run's deadline a moment before the root's own timer fired: the
    // workflow timed out, which is control flow, not a failure of this node (X-3).
    if (result.reason === 'run-timeout' && invocation.now() >= invocation.deadlineAt) throw new RunInterrupt('run-timeout');
    throw new NodeFailure(
      {
        kind: 'agent-failed',
        message: `agent "${this.agent.name}" ended ${result.status}${result.reason ? ` (${result.reason})` : ''}`,
        agentRun: { runId: result.runId, status: result.status, ...(result.reason ? { reason: result.reason } : {}) },
        ...(result.failure ? { failure: result.failure } : {}),
      },
      result.loops,
    );
  }

  validate(context: NodeValidationContext): WorkflowIssue[] {
    const issues: WorkflowIssue[] = [];
    const { node, state } = context;
    const input = this.binding.input;
    if (input === undefined && !context.onlySent) {
      issues.push({
        code: 'missing-binding',
        node,
        binding: 'input',
        message: `agent node "${node}" has no input binding: say which state field (or function) gives the agent its question`,
      });
    }
    if (typeof input === 'string' && !state[input]) {
      issues.push({
        code: 'unknown-field',
        node,
        field: input,
        binding: 'input',
        message: `agent node "${node}" reads its input from the unknown state field "${input}"`,
      });
    }
    issues.push(...validateOutputBinding(node, this.binding.output, TEXT_SCHEMA, state));
    return issues;
  }

  writtenFields(): readonly string[] {
    return typeof this.binding.output === 'string' ? [this.binding.output] : [];
  }

  describe(): string {
    return `agent:${this.agent.name}:${this.agent.mode}`;
  }

  private inputOf(state: Readonly<Record<string, unknown>>): string {
    const input = this.binding.input;
    if (typeof input === 'function') return input(state as StateOf<StateDefinition>);
    return input === undefined ? '' : textOf(state[input]);
  }

  /**
   * Runs or reattaches to the inner run. While another live process still owns it (the previous
   * owner of this workflow, whose lease has not ended yet) it waits for that lease, never
   * starting a second executor (R-2). Only a user stop reaches the inner run (it then ends
   * `stopped`); on a lost ownership or the deadline the task lets go at once, and the inner run
   * ends by its own deadline or is reattached by the workflow's next owner. When the workflow is
   * handed over (`detach`), the inner run is detached too, within what is left of the workflow's
   * bound, and the task waits until it has let go: its lease is released with the workflow's, so
   * the next owner reattaches to it at once (R-6) instead of waiting out its lease.
   */
  private async runInner(
    invocation: NodeInvocation,
    reference: AgentInvocationReference,
    input: string,
    limits: RunLimits,
  ): Promise<RunResult> {
    for (;;) {
      const run = this.agent.run({
        sessionId: reference.sessionId,
        runId: reference.runId,
        input,
        limits,
        signal: invocation.stopSignal,
        // The workflow traces the inner run in its own trace (N-3): the agent's own tracing would trace it twice.
        telemetry: false,
      });
      const forwarded = forwardEvents(run.events(), invocation).catch(() => {});
      const handover: { interrupt?: RunInterrupt } = {};
      const detaching = subscribeToAbort(invocation.signal, (reason) => {
        if (!RunInterrupt.isInstance(reason) || reason.reason !== 'detached') return;
        handover.interrupt = reason;
        const settleMs = Math.max(0, (reason.settleUntil ?? invocation.now()) - invocation.now());
        void run.detach({ settleMs });
      });
      try {
        // A detaching task waits for its inner run to let go (bounded by that run's own detach).
        const result = await (handover.interrupt ? run.result() : raceAbort(run.result(), invocation.hardSignal));
        // Every event of the inner run reaches the workflow before its task's finish (its stream has ended).
        await forwarded;
        return result;
      } catch (error) {
        const detached = handover.interrupt;
        if (detached) {
          // The inner run let go (or was cut at the bound): the workflow hands over, this node did not fail.
          await run.result().catch(() => {});
          if (RunDetachedError.isInstance(error) || RunInterrupt.isInstance(error)) throw detached;
        }
        if (!RunOwnedElsewhereError.isInstance(error)) throw error;
        await abortableSleep(Math.max(10, error.leaseExpiresAt - invocation.now() + 10), invocation.signal);
      } finally {
        detaching.unsubscribe();
      }
    }
  }
}

async function forwardEvents(events: AsyncIterable<RunEvent>, invocation: NodeInvocation): Promise<void> {
  for await (const event of events) invocation.emitAgentEvent(event);
}

/** Text for an agent: strings as they are, anything else as JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}
