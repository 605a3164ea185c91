/**
 * What a workflow run's event stream says about each node of its graph (P-8.12, W-5), for the
 * canvas of a run. The platform streams the facts the run's journal saved: `workflow-start`,
 * `agent-invoke` (an agent node bound to its inner run), `task-retry` (an attempt failed, another
 * follows), `workflow-interrupt` (an input node asks a person), `task-finish` (succeeded, failed or
 * interrupted) and `workflow-finish`. A tool node
 * saves nothing until it finishes, so "running" for it is read from the graph: every arrow into
 * it has fired since it last finished (START fires when the run starts).
 */

import { type EventHandlers, handleEvent, ignored, type WorkflowResult, type WorkflowRunEvent } from './run-events.js';
import { foldTeamEvent, type TeamProgress, teamNodeOf } from './team-progress.js';

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

/** The graph the fold needs: node names and the arrows between them (a join is one arrow from several). */
export interface RunGraph {
  nodes: readonly string[];
  /** Plain edges and joins: `to` runs once every one of `from` has finished. */
  edges: readonly { from: readonly string[]; to: string }[];
  /** The team nodes among `nodes` (N-12). */
  teams?: readonly string[];
}

/** The run as a whole: whether it started and how it ended. */
export interface WorkflowProgress {
  started: boolean;
  /** How many questions input nodes asked so far (`workflow-interrupt`): the run row's `pendingInputs` has them. */
  questions: number;
  nodes: Map<string, NodeRunState>;
  /** Each team node's conversation (N-12), by node name; only team nodes that have an event. */
  teams: Map<string, TeamProgress>;
  finished?: WorkflowResult;
}

/** What the fold carries from one event to the next. */
interface WorkflowFold {
  progress: WorkflowProgress;
  /** The event count at which each node (and START) last finished: an arrow has fired when its source finished after its target did. */
  finishedAt: Map<string, number>;
  /** The position of the event being folded (1 for the first). */
  position: number;
  /** The graph's team nodes (their steps are tasks `X`, `X.turn`, `X.done`). */
  teamNodes: ReadonlySet<string>;
}

/**
 * Every workflow run event type, and what the canvas of a run makes of it. The ignored ones never
 * reach the stream (it replays the journal, which keeps only the facts) or are read elsewhere.
 */
export const workflowProgressHandlers: EventHandlers<WorkflowRunEvent, WorkflowFold> = {
  'workflow-start': ({ progress, finishedAt, position }) => {
    progress.started = true;
    finishedAt.set('START', position);
  },
  'step-start': ignored('live only: a step is read from the tasks that finish in it'),
  'task-start': ignored('live only: a running node is read from the arrows into it'),
  'task-finish': ({ progress, finishedAt, position, teamNodes }, event) => {
    // A team node's member turns and answer (`X.turn`, `X.done`) are tasks of the team node `X`.
    const node = progress.nodes.has(event.node) ? event.node : teamNodeOf(event.node);
    const state = progress.nodes.get(node);
    if (!state) return;
    state.status = event.status;
    if (event.taskId !== state.taskId) delete state.agentRunId;
    state.taskId = event.taskId;
    if (!teamNodes.has(node) || event.node.endsWith('.done')) state.runs += 1;
    delete state.attempt;
    if (event.failure) state.failure = event.failure.message;
    else delete state.failure;
    // A team node has finished when its answer is written (`X.done`), not at each of its steps.
    const team = teamNodes.has(node);
    if (event.status === 'succeeded' && (!team || event.node.endsWith('.done'))) finishedAt.set(node, position);
    else if (event.status === 'succeeded' && team) state.status = 'running';
  },
  'task-retry': ({ progress }, event) => {
    const state = progress.nodes.get(progress.nodes.has(event.node) ? event.node : teamNodeOf(event.node));
    if (!state) return;
    state.status = 'retrying';
    state.taskId = event.taskId;
    state.attempt = event.attempt + 1;
    state.failure = event.failure.message;
  },
  'loop-limit': ignored("live only: the result's `loopLimits` keeps it"),
  'agent-event': ignored("live only: an agent node's inner run is followed through its own stream (drill-in)"),
  'agent-invoke': ({ progress }, event) => {
    const state = progress.nodes.get(event.node);
    if (!state) return;
    Object.assign(state, { status: 'running', taskId: event.taskId, agentRunId: event.agentRunId });
    delete state.failure;
  },
  'stop-request': ignored('the run row says `stopping`; the end comes with `workflow-finish`'),
  // An input node asked a person (issue 36): the node waits for an answer until its task finishes.
  'workflow-interrupt': ({ progress }, event) => {
    progress.questions += 1;
    for (const pending of event.interrupts) {
      const state = progress.nodes.get(pending.node);
      if (!state) continue;
      Object.assign(state, { status: 'interrupted', taskId: pending.taskId });
      delete state.failure;
    }
  },
  // Team events (N-12): folded per team node (turns, next speaker, ledger, owner, ending) for the team view.
  'team-turn': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'speaker-selected': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  handoff: ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'ledger-updated': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'vote-cast': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'task-claimed': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'mail-sent': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'team-stop': ({ progress }, event) => foldTeamEvent(progress.teams, event),
  'workflow-finish': ({ progress }, event) => {
    progress.finished = event.result;
  },
};

/** Folds a workflow run's events (in sequence order) into each node's status. */
export function workflowProgressOf(events: readonly WorkflowRunEvent[], graph: RunGraph): WorkflowProgress {
  const nodes = new Map<string, NodeRunState>(graph.nodes.map((name) => [name, { status: 'pending', runs: 0 }]));
  const progress: WorkflowProgress = { started: false, questions: 0, nodes, teams: new Map() };
  const fold: WorkflowFold = { progress, finishedAt: new Map(), position: 0, teamNodes: new Set(graph.teams ?? []) };
  const ordered = [...events].sort((a, b) => a.sequence - b.sequence);
  for (const event of ordered) {
    fold.position += 1;
    handleEvent(workflowProgressHandlers, fold, event);
  }
  const { finishedAt } = fold;
  if (!progress.started) return progress;
  for (const [name, state] of nodes) {
    if (progress.finished) {
      if (state.status === 'pending') state.status = 'not-run';
      else if (state.status === 'running' || state.status === 'retrying') state.status = 'stopped';
      // An input node still asking when the run ended (stopped, timed out) is no longer waiting.
      else if (state.status === 'interrupted' && progress.finished.status !== 'interrupted') state.status = 'stopped';
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
