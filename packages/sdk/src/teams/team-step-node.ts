import type { WorkflowIssue } from '../engine/workflow/errors/workflow-errors.js';
import { FunctionNode } from '../engine/workflow/nodes/function-node.js';
import type {
  NodeExecution,
  NodeInvocation,
  NodeValidationContext,
  WorkflowNode,
} from '../engine/workflow/nodes/workflow-node.js';
import { interrupt } from '../engine/workflow/pregel/interrupt.js';
import type { TeamState, TeamUpdate } from './team-state.js';
import type { StepScope } from './topology.js';

/** One step of a team: a function of the saved state that returns the step's writes. */
export type TeamStep = (state: TeamState, scope: Omit<StepScope, 'members' | 'retry'>) => Promise<TeamUpdate>;

/**
 * A workflow node that runs one team step. It is a function node (same error typing, abort and
 * interrupt handling) that also reports the step's token usage to the workflow (the run's
 * `usage`), and gives the step the run's deadline, so that model calls never outlive it.
 */
export class TeamStepNode implements WorkflowNode {
  readonly kind = 'function' as const;
  private readonly step: TeamStep;

  constructor(step: TeamStep) {
    this.step = step;
  }

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    let update: TeamUpdate = {};
    const node = new FunctionNode(async (state, context) => {
      update = await this.step(state as unknown as TeamState, {
        // The task's own signal (stop, deadline, lost ownership): the one abort scope of the step,
        // which its model calls subscribe to; the function node's guard would add a second one.
        signal: invocation.hardSignal,
        deadlineAt: invocation.deadlineAt,
        now: invocation.now,
        taskId: invocation.taskId,
        askUser: (question) => interrupt(context, question),
      });
      return update as Record<string, unknown>;
    });
    const execution = await node.execute(invocation);
    return update.usage ? { ...execution, usage: { ...update.usage } } : execution;
  }

  validate(_context: NodeValidationContext): WorkflowIssue[] {
    return [];
  }

  describe(): string {
    return 'team-step';
  }
}
