import type { RunClient } from '@agentloom/sdk';

/** One task of a workflow run as its view shows it: a node in one superstep, with its inner agent run. */
export interface WorkflowTaskView {
  taskId: string;
  node: string;
  step: number;
  /**
   * `running` while an agent node's inner run is bound and the task has not finished;
   * `waiting-input` while an input node's question waits for its answer (issue 36).
   */
  status: 'running' | 'waiting-input' | 'succeeded' | 'failed' | 'interrupted';
  /** The inner agent run of an agent node (`innerRunIdOf(runId, taskId)`); never a row of `runs` (NOT-24). */
  agentRunId?: string;
  failure?: unknown;
}

/**
 * The node statuses of a workflow run (P-8.12), projected from the saved facts of its journal
 * through `RunClient.readEvents`: an agent node's binding to its inner run, each task's finish
 * and its failure. Tasks that started and saved nothing yet do not show.
 */
export async function describeWorkflowTasks(runClient: RunClient, runId: string): Promise<WorkflowTaskView[]> {
  const tasks = new Map<string, WorkflowTaskView>();
  for (const event of await runClient.readEvents(runId)) {
    if (event.type === 'agent-invoke')
      tasks.set(event.taskId, {
        taskId: event.taskId,
        node: event.node,
        step: event.step,
        status: 'running',
        agentRunId: event.agentRunId,
      });
    else if (event.type === 'workflow-interrupt') {
      for (const pending of event.interrupts) {
        const step = Number(pending.taskId.split('/')[0]);
        tasks.set(pending.taskId, { taskId: pending.taskId, node: pending.node, step, status: 'waiting-input' });
      }
    } else if (event.type === 'task-finish' && 'node' in event) {
      const known = tasks.get(event.taskId);
      tasks.set(event.taskId, {
        ...(known ?? { taskId: event.taskId, node: event.node, step: event.step }),
        status: event.status,
        ...(event.failure ? { failure: event.failure } : {}),
      });
    }
  }
  return [...tasks.values()].sort((a, b) => a.step - b.step || a.taskId.localeCompare(b.taskId));
}

/** The inner run id of a workflow task, when `taskId` names an agent node's task of the run. */
export async function agentRunOfTask(runClient: RunClient, runId: string, taskId: string): Promise<string | undefined> {
  const task = (await describeWorkflowTasks(runClient, runId)).find((candidate) => candidate.taskId === taskId);
  return task?.agentRunId;
}
