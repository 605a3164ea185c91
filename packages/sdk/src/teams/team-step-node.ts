import type { ToolExecutionContext } from '../capabilities/tools/tool.js';
import { failureFromToolError } from '../core/failure.js';
import { RunInterrupt } from '../engine/run/run-control.js';
import type { WorkflowIssue } from '../engine/workflow/errors/workflow-errors.js';
import {
  type NodeExecution,
  NodeFailure,
  type NodeInvocation,
  type NodeValidationContext,
  type WorkflowNode,
} from '../engine/workflow/nodes/workflow-node.js';
import { enableInterrupts, InterruptSignal, interrupt } from '../engine/workflow/pregel/interrupt.js';
import type { TeamState, TeamUpdate } from './team-state.js';
import type { StepScope } from './topology.js';

/** One step of a team: a function of the saved state that returns the step's writes. */
export type TeamStep = (state: TeamState, scope: Omit<StepScope, 'members' | 'retry'>) => Promise<TeamUpdate>;

/**
 * A workflow node that runs one team step, typed like a function node (an error fails the task
 * as `node-error` with its classification; a stop, an interrupt and a `NodeFailure` pass through),
 * that also reports the step's token usage to the workflow (the run's `usage`) and gives the step
 * the run's deadline, so that model calls never outlive it. Its one abort scope is the task's own
 * signal (stop, deadline, lost ownership), which each model call's guard subscribes to: a
 * function node's guard around the step would add a second one for nothing, as the step awaits
 * nothing but those calls.
 */
export class TeamStepNode implements WorkflowNode {
  readonly kind = 'function' as const;
  private readonly step: TeamStep;
  private readonly checked: boolean;

  /**
   * With `checked`, the step's writes are vouched for (`NodeExecution.checked`): the step is one
   * of the SDK's own topologies (`vouchesForWrites`), whose writes are built from typed values and
   * whose user functions' results are checked where they are called. Other steps (a topology
   * written outside the SDK) have every write parsed against the state's schemas.
   */
  constructor(step: TeamStep, options: { checked?: boolean } = {}) {
    this.step = step;
    this.checked = options.checked ?? false;
  }

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    const signal = invocation.hardSignal;
    // The context of `interrupt()` is made when a step first asks the user (a task board's
    // approval), not for every turn; it then keeps counting that task's questions.
    let context: ToolExecutionContext | undefined;
    const askUser = <Answer>(question: unknown): Answer => {
      context ??= enableInterrupts(
        {
          runId: invocation.runId,
          sessionId: invocation.sessionId,
          taskId: invocation.taskId,
          operationId: invocation.taskId,
          attempt: invocation.attempt,
          signal,
        } satisfies ToolExecutionContext,
        invocation.taskId,
        invocation.node,
        invocation.resumeValues,
      );
      return interrupt<Answer>(context, question);
    };
    let update: TeamUpdate;
    try {
      signal.throwIfAborted();
      update = await this.step(invocation.state as unknown as TeamState, {
        signal,
        deadlineAt: invocation.deadlineAt,
        now: invocation.now,
        taskId: invocation.taskId,
        askUser,
      });
    } catch (error) {
      if (InterruptSignal.isInstance(error) || NodeFailure.isInstance(error)) throw error;
      if (RunInterrupt.isInstance(signal.reason)) throw signal.reason;
      if (RunInterrupt.isInstance(error)) throw error;
      const failure = failureFromToolError(error);
      throw new NodeFailure({ kind: 'node-error', message: `node "${invocation.node}" failed: ${failure.message}`, failure });
    }
    const execution: NodeExecution = { update: update as Record<string, unknown> };
    if (update.usage) execution.usage = { ...update.usage };
    if (this.checked) execution.checked = true;
    return execution;
  }

  validate(_context: NodeValidationContext): WorkflowIssue[] {
    return [];
  }

  describe(): string {
    return 'team-step';
  }
}
