/**
 * What a workflow run's event stream says about each node of its graph (P-8.12, W-5), for the
 * canvas of a run. The platform streams the facts the run's journal saved: `workflow-start`,
 * `agent-invoke` (an agent node bound to its inner run), `task-retry` (an attempt failed, another
 * follows), `task-finish` (succeeded, failed or interrupted) and `workflow-finish`. A tool node
 * saves nothing until it finishes, so "running" for it is read from the graph: every arrow into
 * it has fired since it last finished (START fires when the run starts).
 */

/** A node's status on the canvas of a run. */
export type NodeRunStatus = 'pending' | 'running' | 'retrying' | 'succeeded' | 'failed' | 'interrupted' | 'stopped' | 'not-run';

/** One node's state in the run: its status and its latest task. */
export interface NodeRunState {
  status: NodeRunStatus;
  /** The latest task of the node (`<step>/<node>`), once one is known. */
  taskId?: string;
  /** The inner agent run of an agent node's latest task. */
  agentRunId?: string;
  /** The attempt that is retrying (2 for the first retry). */
  attempt?: number;
  /** Why the latest attempt or task failed, in words. */
  failure?: string;
  /** How many times the node finished in this run (a loop runs a node more than once). */
  runs: number;
}

/** A workflow event as the stream sends it; only the fields the fold reads. */
export interface WorkflowStreamEvent {
  type: string;
  sequence: number;
  taskId?: string;
  node?: string;
  step?: number;
  status?: string;
  attempt?: number;
  agentRunId?: string;
  failure?: { message?: string; kind?: string; code?: string } | unknown;
  result?: { status: string; output?: unknown; reason?: string; steps?: number; loops?: number };
}

/** The graph the fold needs: node names and the arrows between them (a join is one arrow from several). */
export interface RunGraph {
  nodes: readonly string[];
  /** Plain edges and joins: `to` runs once every one of `from` has finished. */
  edges: readonly { from: readonly string[]; to: string }[];
}

/** The run as a whole: whether it started and how it ended. */
export interface WorkflowProgress {
  started: boolean;
  nodes: Map<string, NodeRunState>;
  finished?: { status: string; output?: unknown; reason?: string; steps?: number; loops?: number };
}

function failureText(failure: unknown): string | undefined {
  if (typeof failure !== 'object' || failure === null) return undefined;
  const typed = failure as { message?: unknown; kind?: unknown };
  if (typeof typed.message === 'string') return typed.message;
  return typeof typed.kind === 'string' ? typed.kind : undefined;
}

/** Folds a workflow run's events (in sequence order) into each node's status. */
export function workflowProgressOf(events: readonly WorkflowStreamEvent[], graph: RunGraph): WorkflowProgress {
  const nodes = new Map<string, NodeRunState>(graph.nodes.map((name) => [name, { status: 'pending', runs: 0 }]));
  // The event count at which each node (and START) last finished: an arrow has fired when its source finished after its target did.
  const finishedAt = new Map<string, number>();
  const progress: WorkflowProgress = { started: false, nodes };
  const ordered = [...events].sort((a, b) => a.sequence - b.sequence);
  ordered.forEach((event, index) => {
    const position = index + 1;
    const node = event.node;
    const state = node ? nodes.get(node) : undefined;
    if (event.type === 'workflow-start') {
      progress.started = true;
      finishedAt.set('START', position);
    } else if (event.type === 'agent-invoke' && state) {
      Object.assign(state, { status: 'running', taskId: event.taskId, agentRunId: event.agentRunId });
      delete state.failure;
    } else if (event.type === 'task-retry' && state) {
      state.status = 'retrying';
      state.taskId = event.taskId ?? state.taskId;
      state.attempt = (event.attempt ?? 1) + 1;
      const text = failureText(event.failure);
      if (text) state.failure = text;
    } else if (event.type === 'task-finish' && state && node) {
      const status = event.status === 'failed' ? 'failed' : event.status === 'interrupted' ? 'interrupted' : 'succeeded';
      state.status = status;
      if (event.taskId !== state.taskId) delete state.agentRunId;
      state.taskId = event.taskId ?? state.taskId;
      state.runs += 1;
      delete state.attempt;
      const text = failureText(event.failure);
      if (text) state.failure = text;
      else delete state.failure;
      if (status === 'succeeded') finishedAt.set(node, position);
    } else if (event.type === 'workflow-finish' && event.result) {
      progress.finished = event.result;
    }
  });
  if (!progress.started) return progress;
  for (const [name, state] of nodes) {
    if (progress.finished) {
      if (state.status === 'pending') state.status = 'not-run';
      else if (state.status === 'running' || state.status === 'retrying') state.status = 'stopped';
      continue;
    }
    if (state.status !== 'pending' && state.status !== 'succeeded') continue;
    const mine = finishedAt.get(name) ?? 0;
    const fired = graph.edges.some(
      (edge) => edge.to === name && edge.from.every((source) => (finishedAt.get(source) ?? 0) > mine),
    );
    if (fired) state.status = 'running';
  }
  return progress;
}
