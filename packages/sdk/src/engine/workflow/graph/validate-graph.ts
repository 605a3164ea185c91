import { END, isReservedName, START } from '../channels/channel-names.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import { nodeRetrySchema } from '../nodes/node-retry.js';
import { successorsOf } from './compile-graph.js';
import type { GraphDefinition } from './graph-definition.js';

/**
 * Checks a graph before it may run (W-4) and returns every problem found, typed: names,
 * unknown targets, the entry, unreachable nodes, unbounded cycles, malformed routes and loops,
 * and each node's bindings and data contracts against the state. Pure; runs nothing.
 */
export function validateGraph(definition: GraphDefinition): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const { nodes } = definition;
  for (const name of definition.duplicateNodes) {
    issues.push(
      isReservedName(name)
        ? {
            code: 'reserved-name',
            name,
            message: `"${name}" is reserved (START, END, names starting with "__" or containing : / # +)`,
          }
        : { code: 'duplicate-node', node: name, message: `two nodes are named "${name}"` },
    );
  }
  for (const field of Object.keys(definition.state)) {
    if (field.startsWith('__') || /[:/#+]/.test(field)) {
      issues.push({ code: 'reserved-name', name: field, message: `state field "${field}" uses a reserved name` });
    }
  }
  const known = (name: string, referencedBy: string, allow: 'source' | 'target') => {
    if (nodes.has(name) || (allow === 'source' && name === START) || (allow === 'target' && name === END)) return;
    issues.push({
      code: 'unknown-node',
      node: name,
      referencedBy,
      message: `${referencedBy} refers to the unknown node "${name}"`,
    });
  };
  for (const edge of definition.edges) {
    const label = `edge ${edge.sources.join(' + ')} → ${edge.target}`;
    for (const source of edge.sources) {
      if (edge.sources.length > 1 && source === START) {
        issues.push({ code: 'invalid-edge', node: START, message: `${label}: START cannot be part of a join` });
      } else known(source, label, 'source');
    }
    if (edge.target === START) issues.push({ code: 'invalid-edge', node: START, message: `${label}: no edge may enter START` });
    else known(edge.target, label, 'target');
    if (edge.sources.length > 1 && edge.target === END) {
      issues.push({ code: 'invalid-edge', node: END, message: `${label}: a join needs a node to run` });
    }
  }
  for (const branch of definition.branches) {
    const label = `the ${branch.kind} after "${branch.source}"`;
    known(branch.source, label, 'source');
    if (branch.targets.length === 0)
      issues.push({ code: 'invalid-edge', node: branch.source, message: `${label} declares no targets` });
    for (const target of branch.targets) {
      const node = branch.pathMap ? branch.pathMap[target] : target;
      if (node === undefined) continue;
      if (branch.kind === 'fan-out' && node === END) {
        issues.push({ code: 'invalid-edge', node: branch.source, message: `${label}: END cannot receive sends` });
      } else known(node, label, 'target');
    }
  }
  for (const spec of nodes.values()) {
    for (const target of spec.goto ?? []) known(target, `the commands of "${spec.name}"`, 'target');
    if (spec.retry === undefined) continue;
    if (spec.node.kind === 'agent') {
      issues.push({
        code: 'invalid-retry-policy',
        node: spec.name,
        message: `agent node "${spec.name}" takes no workflow retry policy: its agent retries by its own policy (W-6)`,
      });
    }
    const parsed = nodeRetrySchema.safeParse(spec.retry);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'retry'}: ${issue.message}`).join('; ');
      issues.push({ code: 'invalid-retry-policy', node: spec.name, message: `node "${spec.name}": ${detail}` });
    }
  }
  const loopSources = new Set<string>();
  for (const loop of definition.loops) {
    const label = `the loop ${loop.from} → ${loop.to}`;
    known(loop.from, label, 'source');
    known(loop.to, label, 'target');
    known(loop.exit, label, 'target');
    if (loop.from === START || loop.to === END) {
      issues.push({ code: 'invalid-edge', node: loop.from, message: `${label} must go from a node back to a node` });
    }
    if (!Number.isInteger(loop.maxIterations) || loop.maxIterations < 1) {
      issues.push({
        code: 'invalid-edge',
        node: loop.from,
        message: `${label}: maxIterations must be a whole number of at least 1`,
      });
    }
    if (loopSources.has(loop.from)) {
      issues.push({ code: 'invalid-edge', node: loop.from, message: `node "${loop.from}" has more than one loop leaving it` });
    }
    loopSources.add(loop.from);
  }
  const successors = successorsOf(definition);
  if (!successors.has(START)) {
    issues.push({ code: 'no-entry', message: 'nothing leaves START: add an edge from START to the first node' });
  } else {
    const reached = reachableFrom(START, successors);
    for (const name of nodes.keys()) {
      if (!reached.has(name)) {
        issues.push({ code: 'unreachable-node', node: name, message: `node "${name}" cannot be reached from START` });
      }
    }
  }
  const cycle = unboundedCycle(definition);
  if (cycle) {
    issues.push({
      code: 'unbounded-cycle',
      nodes: cycle,
      message: `the cycle ${[...cycle, cycle[0]].join(' → ')} has no bound: close it with addLoop({ maxIterations })`,
    });
  }
  issues.push(...conflictingWriters(definition));
  const sentOnly = nodesReachedOnlyBySends(definition);
  for (const [name, spec] of nodes) {
    issues.push(...spec.node.validate({ node: name, state: definition.state, onlySent: sentOnly.has(name) }));
  }
  return issues;
}

function reachableFrom(start: string, successors: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of successors.get(queue.pop() as string) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** Nodes whose every way in is a fan-out: their input is the send's payload, not a binding. */
function nodesReachedOnlyBySends(definition: GraphDefinition): Set<string> {
  const bySend = new Set<string>();
  const otherwise = new Set<string>();
  for (const edge of definition.edges) otherwise.add(edge.target);
  for (const loop of definition.loops) {
    otherwise.add(loop.to);
    otherwise.add(loop.exit);
  }
  for (const branch of definition.branches) {
    for (const target of branch.targets) (branch.kind === 'fan-out' ? bySend : otherwise).add(branch.pathMap?.[target] ?? target);
  }
  return new Set([...bySend].filter((name) => !otherwise.has(name)));
}

/**
 * A cycle that does not go back through a declared loop, if there is one: the graph without the
 * loops' back edges must be acyclic (every repetition is bounded, W-1).
 */
function unboundedCycle(definition: GraphDefinition): string[] | undefined {
  const graph = new Map<string, Set<string>>();
  const add = (source: string, target: string) => {
    if (target === END || !definition.nodes.has(target)) return;
    const set = graph.get(source) ?? new Set<string>();
    set.add(target);
    graph.set(source, set);
  };
  for (const edge of definition.edges) for (const source of edge.sources) add(source, edge.target);
  for (const branch of definition.branches)
    for (const target of branch.targets) add(branch.source, branch.pathMap?.[target] ?? target);
  for (const loop of definition.loops) add(loop.from, loop.exit);
  for (const spec of definition.nodes.values()) for (const target of spec.goto ?? []) add(spec.name, target);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return path.slice(path.indexOf(next));
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [START, ...definition.nodes.keys()]) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parallel writers of one single-value field that the graph shows before the run: two targets
 * of plain edges from the same node (they always run in the same superstep) whose output
 * bindings write the same `lastValue` field with `onConflict: 'error'`. Writers the graph cannot
 * show (functions, routes, sends) are caught at run time as `write-conflict`.
 */
function conflictingWriters(definition: GraphDefinition): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const targetsOf = new Map<string, string[]>();
  for (const edge of definition.edges) {
    if (edge.sources.length !== 1 || edge.target === END) continue;
    const source = edge.sources[0] as string;
    const targets = targetsOf.get(source) ?? [];
    if (!targets.includes(edge.target)) targets.push(edge.target);
    targetsOf.set(source, targets);
  }
  const reported = new Set<string>();
  for (const [source, targets] of targetsOf) {
    const writers = new Map<string, string[]>();
    for (const target of targets) {
      for (const field of definition.nodes.get(target)?.node.writtenFields?.() ?? []) {
        const declared = definition.state[field];
        if (declared?.kind !== 'last-value' || declared.onConflict === 'last-write-wins') continue;
        writers.set(field, [...(writers.get(field) ?? []), target]);
      }
    }
    for (const [field, nodes] of writers) {
      const key = `${field}:${nodes.join('+')}`;
      if (nodes.length < 2 || reported.has(key)) continue;
      reported.add(key);
      issues.push({
        code: 'conflicting-writes',
        field,
        nodes,
        message: `nodes ${nodes.map((node) => `"${node}"`).join(' and ')} run in parallel after "${source}" and both write the single-value field "${field}": make it appendList or mergeWith, or set lastValue(…, { onConflict: 'last-write-wins' })`,
      });
    }
  }
  return issues;
}
