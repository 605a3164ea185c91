import { createHash } from 'node:crypto';
import { END, joinChannel, loopChannel, SENDS_CHANNEL, START, triggerChannel } from '../channels/channel-names.js';
import { type Channel, CounterChannel, FieldChannel, JoinChannel, SendsChannel, TriggerChannel } from '../channels/channels.js';
import type { BranchSpec, GraphDefinition, LoopSpec, NodeSpec } from './graph-definition.js';

/** A join as the planner sees it. */
export interface JoinSpec {
  channel: string;
  target: string;
  sources: readonly string[];
}

/**
 * A validated graph in the form the engine runs: every channel, which channels trigger which
 * node, the static writes of each node's edges, and reachability for releasing joins (W-8).
 * Immutable; shared by every run of a workflow.
 */
export interface CompiledGraph {
  definition: GraphDefinition;
  /** Nodes in declaration order. */
  nodes: readonly NodeSpec[];
  nodeByName: ReadonlyMap<string, NodeSpec>;
  /** Trigger channels of each node: its own `to:` channel, then its joins. */
  triggersOf: ReadonlyMap<string, readonly string[]>;
  /** Nodes each trigger channel can trigger, in declaration order. */
  nodesOf: ReadonlyMap<string, readonly NodeSpec[]>;
  joins: ReadonlyMap<string, JoinSpec>;
  /** Writes made when a node finishes, for its static edges. */
  staticWrites: ReadonlyMap<string, readonly [string, unknown][]>;
  branchesOf: ReadonlyMap<string, readonly BranchSpec[]>;
  loopOf: ReadonlyMap<string, LoopSpec>;
  /** Every node a node can lead to (static edges, declared routes, fan-outs, loop paths). */
  successors: ReadonlyMap<string, readonly string[]>;
  fieldNames: readonly string[];
  /** Identifies the graph's shape; a run is resumed only by a graph with the same one (B-5). */
  fingerprint: string;
  /** Creates a fresh set of channels for one run. */
  createChannels(): Map<string, Channel>;
}

/** Compiles a definition that `validateGraph` accepted. */
export function compileGraph(definition: GraphDefinition): CompiledGraph {
  const nodes = [...definition.nodes.values()].sort((a, b) => a.index - b.index);
  const joins = new Map<string, JoinSpec>();
  for (const edge of definition.edges) {
    if (edge.sources.length < 2) continue;
    const channel = joinChannel(edge.target, edge.sources);
    joins.set(channel, { channel, target: edge.target, sources: edge.sources });
  }
  const triggersOf = new Map<string, string[]>();
  const nodesOf = new Map<string, NodeSpec[]>();
  for (const spec of nodes) {
    const own = triggerChannel(spec.name);
    const triggers = [own, ...[...joins.values()].filter((join) => join.target === spec.name).map((join) => join.channel)];
    triggersOf.set(spec.name, triggers);
    for (const channel of triggers) nodesOf.set(channel, [...(nodesOf.get(channel) ?? []), spec]);
  }
  const staticWrites = new Map<string, [string, unknown][]>();
  const addWrite = (source: string, write: [string, unknown]) => {
    const writes = staticWrites.get(source) ?? [];
    if (!writes.some(([channel]) => channel === write[0])) writes.push(write);
    staticWrites.set(source, writes);
  };
  for (const edge of definition.edges) {
    if (edge.target === END) continue;
    for (const source of edge.sources) {
      if (edge.sources.length > 1) addWrite(source, [joinChannel(edge.target, edge.sources), source]);
      else addWrite(source, [triggerChannel(edge.target), null]);
    }
  }
  const branchesOf = new Map<string, BranchSpec[]>();
  for (const branch of definition.branches) branchesOf.set(branch.source, [...(branchesOf.get(branch.source) ?? []), branch]);
  const loopOf = new Map(definition.loops.map((loop) => [loop.from, loop]));
  const successors = successorsOf(definition);
  const fieldNames = Object.keys(definition.state);
  return {
    definition,
    nodes,
    nodeByName: new Map(nodes.map((spec) => [spec.name, spec])),
    triggersOf,
    nodesOf,
    joins,
    staticWrites,
    branchesOf,
    loopOf,
    successors,
    fieldNames,
    fingerprint: fingerprintOf(definition, nodes),
    createChannels: () => {
      const channels = new Map<string, Channel>();
      for (const name of fieldNames) channels.set(name, new FieldChannel(definition.state[name] as never));
      for (const spec of nodes) channels.set(triggerChannel(spec.name), new TriggerChannel());
      for (const join of joins.values()) channels.set(join.channel, new JoinChannel(join.sources));
      for (const loop of definition.loops) channels.set(loopChannel(loop.from), new CounterChannel());
      channels.set(SENDS_CHANNEL, new SendsChannel());
      return channels;
    },
  };
}

/** The channel a transition from `source` to `target` writes: the join it feeds, or the target's trigger. */
export function transitionWrites(graph: CompiledGraph, source: string, target: string): [string, unknown][] {
  if (target === END) return [];
  const writes: [string, unknown][] = [];
  for (const join of graph.joins.values()) {
    if (join.target === target && join.sources.includes(source)) writes.push([join.channel, source]);
  }
  if (writes.length === 0) writes.push([triggerChannel(target), null]);
  return writes;
}

/** Every node each node (and START) may lead to. */
export function successorsOf(definition: GraphDefinition): Map<string, string[]> {
  const successors = new Map<string, Set<string>>();
  const add = (source: string, target: string) => {
    if (target === END) return;
    const set = successors.get(source) ?? new Set<string>();
    set.add(target);
    successors.set(source, set);
  };
  for (const edge of definition.edges) for (const source of edge.sources) add(source, edge.target);
  for (const branch of definition.branches) {
    for (const target of branch.targets) add(branch.source, branch.pathMap?.[target] ?? target);
  }
  for (const loop of definition.loops) {
    add(loop.from, loop.to);
    add(loop.from, loop.exit);
  }
  for (const spec of definition.nodes.values()) for (const target of spec.goto ?? []) add(spec.name, target);
  return new Map([...successors].map(([source, targets]) => [source, [...targets]]));
}

/**
 * Whether any of `missing` can still run: reachable from the nodes in `from` without passing
 * through `blocked` (the join's own target, which cannot run before the join fires).
 */
export function canReach(graph: CompiledGraph, from: Iterable<string>, missing: ReadonlySet<string>, blocked: string): boolean {
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const node of from) {
    if (node === blocked || seen.has(node)) continue;
    seen.add(node);
    queue.push(node);
  }
  while (queue.length > 0) {
    const node = queue.pop() as string;
    if (missing.has(node)) return true;
    for (const next of graph.successors.get(node) ?? []) {
      if (next === blocked || seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return false;
}

function fingerprintOf(definition: GraphDefinition, nodes: readonly NodeSpec[]): string {
  const shape = {
    state: Object.entries(definition.state).map(([name, field]) => [name, field.kind]),
    nodes: nodes.map((spec) => [spec.name, spec.node.describe(), spec.goto ?? null]),
    edges: definition.edges.map((edge) => [edge.sources, edge.target]),
    branches: definition.branches.map((branch) => [branch.kind, branch.source, branch.targets, branch.pathMap ?? null]),
    loops: definition.loops.map((loop) => [loop.from, loop.to, loop.exit, loop.maxIterations, loop.onLimit]),
    start: START,
  };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16);
}
