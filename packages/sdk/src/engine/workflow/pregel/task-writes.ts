import { END, LOOP_LIMIT_CHANNEL, loopChannel, SENDS_CHANNEL } from '../channels/channel-names.js';
import type { CounterChannel } from '../channels/channels.js';
import { InvalidStateUpdateError, LoopLimitReachedError, UndeclaredRouteError } from '../errors/workflow-errors.js';
import { type CompiledGraph, transitionWrites } from '../graph/compile-graph.js';
import { type BranchSpec, type DecisionSource, isSend, type Send } from '../graph/graph-definition.js';
import type { ChannelWrite } from './workflow-journal.js';
import type { WorkflowRunState } from './workflow-state.js';

/**
 * The channel writes of a finished task (or of the input, as `START`): its state update,
 * validated field by field (unless the node vouched for it, `checked`), then its transitions — static edges, routes, fan-outs and loop
 * decisions. Routes and loops read a fresh view (the state with this task's own update applied,
 * as LangGraph's "local read" does), and their choices are saved with the writes, so a resumed
 * run never asks a route again (W-3).
 */
export function writesOfTask(
  graph: CompiledGraph,
  state: Pick<WorkflowRunState, 'values' | 'channels'>,
  node: string,
  update: Readonly<Record<string, unknown>>,
  options: { source?: DecisionSource; goto?: readonly (string | Send)[]; checked?: boolean } = {},
): ChannelWrite[] {
  const writes: ChannelWrite[] = [];
  const fields = graph.definition.state;
  for (const name of Object.keys(update)) {
    const value = update[name];
    if (value === undefined) continue;
    const field = fields[name];
    if (!field) throw new InvalidStateUpdateError(writerOf(node), name, 'the state has no such field');
    if (options.checked) {
      writes.push([name, value]);
      continue;
    }
    const parsed = field.updateSchema.safeParse(value);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(value)'}: ${issue.message}`).join('; ');
      throw new InvalidStateUpdateError(writerOf(node), name, detail);
    }
    writes.push([name, parsed.data]);
  }
  const staticWrites = graph.staticWrites.get(node);
  if (staticWrites) writes.push(...staticWrites);
  if (options.goto) writes.push(...commandWrites(graph, node, options.goto));
  const branches = graph.branchesOf.get(node);
  const loop = graph.loopOf.get(node);
  if (!branches && !loop) return writes;
  const source = options.source ?? {};
  const fresh = freshView(graph, state, writes);
  for (const branch of branches ?? []) writes.push(...branchWrites(graph, node, branch, fresh, source));
  if (loop) {
    const passes = (state.channels.get(loopChannel(node)) as CounterChannel).get() + 1;
    const wanted = loop.condition(fresh, source) === true;
    const again = passes < loop.maxIterations && wanted;
    if (wanted && !again) {
      if (loop.onLimit === 'fail') throw new LoopLimitReachedError(node, loop.maxIterations);
      writes.push([LOOP_LIMIT_CHANNEL, { loop: node, iterations: passes }]);
    }
    writes.push([loopChannel(node), again ? passes : 0], ...transitionWrites(graph, node, again ? loop.to : loop.exit));
  }
  return writes;
}

/** The transitions of a node's command: each target must be one the node declared (W-3). */
function commandWrites(graph: CompiledGraph, node: string, goto: readonly (string | Send)[]): ChannelWrite[] {
  const declared = graph.nodeByName.get(node)?.goto ?? [];
  const writes: ChannelWrite[] = [];
  for (const target of goto) {
    const name = isSend(target) ? target.node : target;
    if (typeof name !== 'string' || !declared.includes(name)) throw new UndeclaredRouteError(node, String(name), declared);
    if (isSend(target)) writes.push([SENDS_CHANNEL, { node: target.node, payload: target.payload }]);
    else if (target !== END) writes.push(...transitionWrites(graph, node, target));
  }
  return writes;
}

function branchWrites(
  graph: CompiledGraph,
  node: string,
  branch: BranchSpec,
  fresh: Readonly<Record<string, unknown>>,
  source: DecisionSource,
): ChannelWrite[] {
  const decided = branch.decide(fresh, source);
  const choices = Array.isArray(decided) ? decided : [decided];
  const writes: ChannelWrite[] = [];
  for (const choice of choices) {
    if (branch.kind === 'fan-out') {
      if (!isSend(choice) || !branch.targets.includes(choice.node)) {
        throw new UndeclaredRouteError(node, isSend(choice) ? choice.node : String(choice), branch.targets);
      }
      writes.push([SENDS_CHANNEL, { node: choice.node, payload: choice.payload }]);
      continue;
    }
    if (typeof choice !== 'string' || !branch.targets.includes(choice)) {
      throw new UndeclaredRouteError(node, String(choice), branch.targets);
    }
    const target = branch.pathMap ? (branch.pathMap[choice] as string) : choice;
    if (target !== END) writes.push(...transitionWrites(graph, node, target));
  }
  return writes;
}

/** The state with a task's own field writes applied through the reducers, for its routes. */
function freshView(
  graph: CompiledGraph,
  state: Pick<WorkflowRunState, 'values'>,
  writes: readonly ChannelWrite[],
): Record<string, unknown> {
  const view = { ...state.values };
  for (const [name, value] of writes) {
    const field = graph.definition.state[name];
    if (field) view[name] = field.reduce(view[name], value);
  }
  return view;
}

/** Who wrote an update, as an error names it (made only for an error). */
function writerOf(node: string): string {
  return node === '__start__' ? 'the workflow input' : `node "${node}"`;
}
