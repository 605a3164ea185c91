import type { StateDefinition } from '../channels/state-fields.js';
import type { NodeRetryPolicy } from '../nodes/node-retry.js';
import type { WorkflowNode } from '../nodes/workflow-node.js';

export { isSend, type Send, send } from './send.js';

/** A node of the graph with its declaration position (the tie-breaker of every ordering). */
export interface NodeSpec {
  name: string;
  node: WorkflowNode;
  index: number;
  /** The node's own retry policy (capability and function nodes); the workflow's default otherwise. */
  retry?: NodeRetryPolicy;
  /** The targets a command returned by the node may name (W-3: declared paths only). */
  goto?: readonly string[];
  /**
   * The artifacts (files, state fields, anything named) the node reads and writes (seed 004 Q1):
   * two tasks of a superstep where one writes what the other reads or writes never run at the
   * same time; tasks that only read run side by side.
   */
  artifacts?: ArtifactSets;
}

/** What a node reads and writes, by name. */
export interface ArtifactSets {
  reads?: readonly string[];
  writes?: readonly string[];
}

/** What a route, fan-out or loop condition knows of the task it decides after. */
export interface DecisionSource {
  /** The `send()` payload of that task, when a send made it (a nested fan-out reads it here). */
  payload?: unknown;
}

/** An edge: one source, or several (a join: the target runs once all of them, or all that can, finished). */
export interface EdgeSpec {
  sources: readonly string[];
  target: string;
}

/** A state-dependent transition out of a node: a route among declared targets, or a fan-out of sends. */
export interface BranchSpec {
  kind: 'route' | 'fan-out';
  source: string;
  /** Declared targets (node names, or END for a route); the only ones that may be taken (W-3). */
  targets: readonly string[];
  /** For a route with a path map: the key a route returns → the target node. */
  pathMap?: Readonly<Record<string, string>>;
  decide: (state: Readonly<Record<string, unknown>>, source: DecisionSource) => unknown;
}

/** A bounded loop: after `from`, go back to `to` while the condition holds, at most `maxIterations` passes. */
export interface LoopSpec {
  from: string;
  to: string;
  exit: string;
  maxIterations: number;
  /** What reaching `maxIterations` with the condition still true does: `exit` (noted in the result) or `fail`. */
  onLimit: 'exit' | 'fail';
  condition: (state: Readonly<Record<string, unknown>>, source: DecisionSource) => boolean;
}

/** Everything a builder collected: the raw graph before validation and compilation. */
export interface GraphDefinition {
  name: string;
  state: StateDefinition;
  nodes: Map<string, NodeSpec>;
  /** Names given to `addNode` more than once, and reserved names, found while building. */
  duplicateNodes: string[];
  edges: EdgeSpec[];
  branches: BranchSpec[];
  loops: LoopSpec[];
}
