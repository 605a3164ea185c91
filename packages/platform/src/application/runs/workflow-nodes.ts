import { ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { describeRun } from './run-service.js';
import { describeWorkflowTasks, type WorkflowTaskView } from './workflow-view.js';

/** One node of a workflow run: its latest task's status, how often it ran, its failure or its agent's answer. */
export interface WorkflowNodeView {
  node: string;
  status: WorkflowTaskView['status'];
  /** The superstep of its latest task. */
  step: number;
  /** Tasks of this node so far (a node in a loop runs once per round). */
  tasks: number;
  failure?: unknown;
  /** An agent node's inner run (`/runs/{runId}/agent-view?taskId=`), and its answer once it succeeded. */
  agentRunId?: string;
  output?: unknown;
}

/**
 * The node statuses, results and errors of a workflow run (PLATFORM.md §4.4 `GET /runs/{runId}/nodes`):
 * the run view's tasks folded per node, newest task first, with an agent node's answer read from
 * its inner run. Nodes that have not run yet are not listed. An agent run has no nodes (422
 * `not-a-workflow-run`).
 */
export async function readWorkflowNodes(context: Pick<PlatformContext, 'runClient'>, runId: string): Promise<WorkflowNodeView[]> {
  const description = await describeRun(context, runId);
  if (description.kind !== 'workflow')
    throw new ValidationError('not-a-workflow-run', 'Only a workflow run has nodes; read /runs/{runId}/view for an agent run.');
  const nodes = new Map<string, WorkflowNodeView>();
  for (const task of await describeWorkflowTasks(context.runClient, runId)) {
    const known = nodes.get(task.node);
    nodes.set(task.node, {
      node: task.node,
      status: task.status,
      step: task.step,
      tasks: (known?.tasks ?? 0) + 1,
      ...(task.failure !== undefined ? { failure: task.failure } : {}),
      ...(task.agentRunId ? { agentRunId: task.agentRunId } : {}),
    });
  }
  for (const node of nodes.values()) {
    if (!node.agentRunId || node.status !== 'succeeded') continue;
    const inner = await describeRun(context, node.agentRunId).catch(() => undefined);
    if (inner?.result?.output !== undefined) node.output = inner.result.output;
  }
  return [...nodes.values()].sort((left, right) => left.step - right.step || left.node.localeCompare(right.node));
}
