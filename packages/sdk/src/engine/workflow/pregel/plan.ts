import { SENDS_CHANNEL, START } from '../channels/channel-names.js';
import type { JoinChannel, SendsChannel } from '../channels/channels.js';
import { type CompiledGraph, canReach } from '../graph/compile-graph.js';
import type { ChannelWrite } from './workflow-journal.js';
import type { PlannedTask, WorkflowRunState } from './workflow-state.js';

/**
 * The pure half of the superstep engine (LangGraph's "prepare next tasks", written here): given
 * the channels and versions after a superstep, which tasks run next, with deterministic ids. A
 * node runs when one of its trigger channels is available with a version it has not seen. The
 * same function plans the live run and the fold of a recovered one, so both plan the same tasks.
 */
export function planSuperstep(graph: CompiledGraph, state: WorkflowRunState, updated: ReadonlySet<string>): PlannedTask[] {
  const candidates = new Set<number>();
  for (const channel of updated) {
    for (const spec of graph.nodesOf.get(channel) ?? []) candidates.add(spec.index);
  }
  const pulls = new Set<string>();
  for (const index of [...candidates].sort((a, b) => a - b)) {
    const name = (graph.nodes[index] as { name: string }).name;
    if (fires(graph, state, name)) pulls.add(name);
  }
  const sends = (state.channels.get(SENDS_CHANNEL) as SendsChannel).get();
  releaseUntakenJoins(
    graph,
    state,
    pulls,
    sends.map((request) => request.node),
  );
  const tasks: PlannedTask[] = [];
  for (const spec of graph.nodes) {
    if (!pulls.has(spec.name)) continue;
    tasks.push({
      id: `${state.step}/${spec.name}`,
      node: spec.name,
      kind: 'pull',
      triggers: graph.triggersOf.get(spec.name) ?? [],
    });
  }
  sends.forEach((request, index) => {
    tasks.push({
      id: `${state.step}/${request.node}/${index}`,
      node: request.node,
      kind: 'push',
      triggers: [],
      payload: request.payload,
    });
  });
  return tasks;
}

/** Whether `node` has a trigger channel that is available with a version it has not seen. */
function fires(graph: CompiledGraph, state: WorkflowRunState, node: string): boolean {
  const seen = state.versionsSeen.get(node);
  for (const channel of graph.triggersOf.get(node) ?? []) {
    if (!state.channels.get(channel)?.isAvailable()) continue;
    if ((state.versions.get(channel) ?? 0) > (seen?.get(channel) ?? 0)) return true;
  }
  return false;
}

/**
 * W-8: a join never waits forever for a branch that was not taken. A join with some sources in
 * is released when none of its missing sources can still run — reachable neither from the next
 * superstep's tasks nor from the targets of other waiting joins, without passing through its own
 * target. When nothing at all is left to run, every waiting join is released. A released join's
 * target is added to `pulls`.
 */
function releaseUntakenJoins(graph: CompiledGraph, state: WorkflowRunState, pulls: Set<string>, sent: readonly string[]): void {
  if (graph.joins.size === 0) return;
  const waiting = [...graph.joins.values()].filter((join) => (state.channels.get(join.channel) as JoinChannel).isPartial());
  if (waiting.length === 0) return;
  const active = [...pulls, ...sent];
  const released = waiting.filter((join) => {
    const channel = state.channels.get(join.channel) as JoinChannel;
    const others = waiting.filter((other) => other !== join).map((other) => other.target);
    return !canReach(graph, [...active, ...others], new Set(channel.missing()), join.target);
  });
  const toRelease = released.length > 0 || active.length > 0 ? released : waiting;
  for (const join of toRelease) {
    (state.channels.get(join.channel) as JoinChannel).release();
    state.maxVersion += 1;
    state.versions.set(join.channel, state.maxVersion);
    if (fires(graph, state, join.target)) pulls.add(join.target);
  }
}

/**
 * Applies one superstep's writes (LangGraph's "apply writes", written here): every task marks
 * the versions of its triggers as seen and consumes them (joins reset); then the writes are
 * grouped per channel in the tasks' planned order — never completion order — so each reducer
 * sees parallel writes in the same order on every run; every changed channel gets the same new
 * version; one-superstep channels that were not written are cleared. Returns the changed channels.
 */
export function applySuperstepWrites(
  graph: CompiledGraph,
  state: WorkflowRunState,
  tasks: readonly PlannedTask[],
  writesOf: (task: PlannedTask) => readonly ChannelWrite[],
): Set<string> {
  const next = state.maxVersion + 1;
  const updated = new Set<string>();
  for (const task of tasks) {
    if (task.kind !== 'pull') continue;
    let seen = state.versionsSeen.get(task.node);
    if (!seen) {
      seen = new Map();
      state.versionsSeen.set(task.node, seen);
    }
    for (const channel of task.triggers) seen.set(channel, state.versions.get(channel) ?? 0);
  }
  for (const task of tasks) {
    if (task.kind !== 'pull') continue;
    for (const channel of task.triggers) {
      if (state.channels.get(channel)?.consume()) markUpdated(state, updated, channel, next);
    }
  }
  const grouped = new Map<string, unknown[]>();
  for (const task of tasks) {
    for (const [channel, value] of writesOf(task)) {
      const values = grouped.get(channel);
      if (values) values.push(value);
      else grouped.set(channel, [value]);
    }
  }
  let values: Record<string, unknown> | undefined;
  for (const [name, written] of grouped) {
    const channel = state.channels.get(name);
    if (!channel?.update(written)) continue;
    markUpdated(state, updated, name, next);
    if (channel.ephemeral) state.liveEphemeral.add(name);
    else if (name in graph.definition.state) {
      values ??= { ...state.values };
      values[name] = channel.get();
    }
  }
  for (const name of state.liveEphemeral) {
    if (grouped.has(name)) continue;
    if (state.channels.get(name)?.update([])) markUpdated(state, updated, name, next);
    state.liveEphemeral.delete(name);
  }
  if (values) state.values = values;
  if (updated.size > 0) state.maxVersion = Math.max(state.maxVersion, next);
  return updated;
}

function markUpdated(state: WorkflowRunState, updated: Set<string>, channel: string, version: number): void {
  state.versions.set(channel, version);
  updated.add(channel);
}

/** The tasks of the superstep that comes after the input (superstep 0). */
export function planAfterInput(graph: CompiledGraph, state: WorkflowRunState, writes: readonly ChannelWrite[]): void {
  const input: PlannedTask = { id: START, node: START, kind: 'push', triggers: [] };
  const updated = applySuperstepWrites(graph, state, [input], () => writes);
  state.step = 0;
  state.tasks = taskMap(planSuperstep(graph, state, updated));
}

/** Tasks by id, in planned order. */
export function taskMap(tasks: readonly PlannedTask[]): Map<string, PlannedTask> {
  return new Map(tasks.map((task) => [task.id, task]));
}
