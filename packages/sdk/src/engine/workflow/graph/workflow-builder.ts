import type { z } from 'zod';
import type { Tool } from '../../../capabilities/tools/tool.js';
import type { Agent } from '../../agent/agent.js';
import { isReservedName } from '../channels/channel-names.js';
import type { StateDefinition, StateOf } from '../channels/state-fields.js';
import { type WorkflowIssue, WorkflowValidationError } from '../errors/workflow-errors.js';
import { type AgentBinding, AgentNode } from '../nodes/agent-node.js';
import { type CapabilityBinding, CapabilityNode } from '../nodes/capability-node.js';
import { FunctionNode, type NodeFunction } from '../nodes/function-node.js';
import { InputNode, type InputNodeOptions } from '../nodes/input-node.js';
import type { NodeRetryPolicy } from '../nodes/node-retry.js';
import type { WorkflowNode } from '../nodes/workflow-node.js';
import { Workflow, type WorkflowOptions } from '../workflow.js';
import { compileGraph } from './compile-graph.js';
import type { ArtifactSets, DecisionSource, GraphDefinition, NodeSpec, Send } from './graph-definition.js';
import { validateGraph } from './validate-graph.js';

/** Options of a bounded loop (W-1). */
export interface LoopOptions<State> {
  /** The node at the end of the loop's body: the loop decides after it finishes. */
  from: string;
  /** Where the loop goes back to: the first node of the body. */
  to: string;
  /** Where the run goes when the condition fails or the bound is reached (a node, or END). */
  exit: string;
  /** Go back while this holds (read on the state with `from`'s own update applied). */
  while: (state: State) => boolean;
  /** The body runs at most this many times per entry into the loop; then the loop exits. */
  maxIterations: number;
  /**
   * What reaching `maxIterations` with the condition still true does: `exit` (default) goes to
   * `exit` and notes it in the result's `loopLimits` and a `loop-limit` event; `fail` ends the run
   * `failed` / `loop-limit-reached`.
   */
  onLimit?: 'exit' | 'fail';
}

/** Options of a function node. */
export interface FunctionNodeOptions {
  /** The node's retry policy; default: the workflow's `retry`. */
  retry?: NodeRetryPolicy;
  /** The targets (node names, or END) a command returned by the node may send the run to (W-3). */
  goto?: readonly string[];
  /** Timeout of one attempt, in milliseconds, bounded by the run's deadline. Default: none. */
  timeoutMs?: number;
  /**
   * The artifacts the node reads and writes: two nodes of one superstep where one writes what the
   * other reads or writes never run at once (read-only nodes still run side by side).
   */
  artifacts?: ArtifactSets;
}

/**
 * Builds a workflow graph (W-1, W-2): typed state with a reducer per field, capability and agent
 * nodes with their bindings, edges, joins, conditional routes among declared targets, dynamic
 * fan-out and bounded loops. `compile()` validates the whole graph first (W-4) and throws
 * `WorkflowValidationError` listing every problem; nothing runs before that.
 *
 * @example
 * const workflow = new WorkflowBuilder({ name: 'answer', state: { question: lastValue(z.string()), answer: lastValue(z.string()) } })
 *   .addAgentNode('expert', expert, { input: 'question', output: 'answer' })
 *   .addEdge(START, 'expert')
 *   .addEdge('expert', END)
 *   .compile({ store });
 * const result = await workflow.run({ sessionId: 's1', input: { question: 'Why is the sky blue?' } }).result();
 */
export class WorkflowBuilder<Definition extends StateDefinition> {
  private readonly definition: GraphDefinition;

  /**
   * @param options.name Names the workflow in its runs' journals (default `workflow`); a run is
   *   resumed only by a workflow of the same name and graph (B-5).
   * @param options.state The state's fields, each with its reducer.
   */
  constructor(options: { name?: string; state: Definition }) {
    this.definition = {
      name: options.name ?? 'workflow',
      state: options.state,
      nodes: new Map(),
      duplicateNodes: [],
      edges: [],
      branches: [],
      loops: [],
    };
  }

  /**
   * Adds a node: a function of the state that returns a state update (or a `command()`, or
   * nothing), typed from the state's fields; or a node object (`CapabilityNode`, `AgentNode`).
   * A function node is saved and recovered like any other node.
   *
   * @example
   * builder.addNode('count', (state) => ({ count: state.count + 1 }), { retry: { attempts: 3 } });
   */
  addNode(name: string, node: NodeFunction<Definition>, options?: FunctionNodeOptions): this;
  addNode(name: string, node: WorkflowNode, options?: Pick<FunctionNodeOptions, 'retry' | 'goto' | 'artifacts'>): this;
  addNode(name: string, node: NodeFunction<Definition> | WorkflowNode, options: FunctionNodeOptions = {}): this {
    const workflowNode =
      typeof node === 'function'
        ? new FunctionNode(
            node as NodeFunction<StateDefinition>,
            options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {},
          )
        : node;
    if (this.definition.nodes.has(name) || isReservedName(name)) {
      this.definition.duplicateNodes.push(name);
      return this;
    }
    const spec: NodeSpec = { name, node: workflowNode, index: this.definition.nodes.size };
    if (options.retry) spec.retry = options.retry;
    if (options.goto) spec.goto = [...options.goto];
    if (options.artifacts)
      spec.artifacts = { reads: [...(options.artifacts.reads ?? [])], writes: [...(options.artifacts.writes ?? [])] };
    this.definition.nodes.set(name, spec);
    return this;
  }

  /**
   * Declares what an existing node (of any kind: agent, capability, input…) reads and writes, as
   * `addNode`'s `artifacts` option does: a writer never runs beside another task of its superstep
   * that reads or writes the same artifact.
   */
  declareArtifacts(name: string, artifacts: ArtifactSets): this {
    const spec = this.definition.nodes.get(name);
    if (!spec) throw new TypeError(`declareArtifacts: the workflow has no node "${name}" (add the node first).`);
    spec.artifacts = { reads: [...(artifacts.reads ?? [])], writes: [...(artifacts.writes ?? [])] };
    return this;
  }

  /** Adds a capability node: one tool, its arguments bound to state fields, its result to a field. */
  addCapabilityNode<Parameters extends z.ZodType>(
    name: string,
    tool: Tool<Parameters>,
    binding?: CapabilityBinding<Definition, z.input<Parameters>>,
  ): this {
    const node = new CapabilityNode(tool as unknown as Tool, binding as never);
    return this.addNode(name, node, binding?.retry ? { retry: binding.retry } : {});
  }

  /**
   * Adds an input node (issue 36): the run asks a person `question` and waits, durably, for one
   * answer (`RunClient.answerInput` from any process), which goes to `output`; with a timeout, the
   * declared outcome is recorded as the answer when it passes.
   */
  addInputNode(name: string, options: InputNodeOptions<Definition>): this {
    return this.addNode(name, new InputNode(options as InputNodeOptions));
  }

  /**
   * Adds an agent node: a complete ReAct or Plan–Executor agent, invoked with a stable id.
   * It takes no workflow retry policy: the agent retries its model and tool calls by its own (W-6).
   */
  addAgentNode(name: string, agent: Agent, binding?: AgentBinding<Definition>): this {
    return this.addNode(name, new AgentNode(agent, binding as never));
  }

  /**
   * Adds an edge. With several sources it is a join: the target runs once, after all of them
   * finished, or after those that could still run did (a source on an untaken branch is not
   * waited for, W-8).
   */
  addEdge(source: string | readonly string[], target: string): this {
    const sources = typeof source === 'string' ? [source] : [...new Set(source)];
    this.definition.edges.push({ sources, target });
    return this;
  }

  /**
   * Adds a route after `source`: after it finishes, `route` picks one or more of the declared
   * targets (node names or END), or keys of a path map. Only declared paths can be taken (W-3):
   * anything else fails the node with `UndeclaredRouteError`.
   */
  addConditionalEdges<const Targets extends readonly string[]>(
    source: string,
    route: (state: StateOf<Definition>, source: DecisionSource) => Targets[number] | readonly Targets[number][],
    targets: Targets,
  ): this;
  addConditionalEdges<const PathMap extends Record<string, string>>(
    source: string,
    route: (state: StateOf<Definition>, source: DecisionSource) => (keyof PathMap & string) | readonly (keyof PathMap & string)[],
    pathMap: PathMap,
  ): this;
  addConditionalEdges(
    source: string,
    route: (state: StateOf<Definition>, source: DecisionSource) => unknown,
    targets: readonly string[] | Record<string, string>,
  ): this {
    const isList = Array.isArray(targets);
    this.definition.branches.push({
      kind: 'route',
      source,
      targets: isList ? [...(targets as readonly string[])] : Object.keys(targets),
      ...(isList ? {} : { pathMap: { ...(targets as Record<string, string>) } }),
      decide: route as (state: Readonly<Record<string, unknown>>, source: DecisionSource) => unknown,
    });
    return this;
  }

  /**
   * Adds a dynamic fan-out after `source`: `fanOut` returns `send(node, payload)` requests, each
   * one task in the next superstep with its payload as input; a plain edge from the target
   * gathers them (its successor runs once, after all of them). Targets must be declared. When
   * `source` itself was made by a send, `from.payload` is that send's payload (nested fan-out).
   */
  addFanOut(
    source: string,
    fanOut: (state: StateOf<Definition>, from: DecisionSource) => readonly Send[],
    targets: readonly string[],
  ): this {
    this.definition.branches.push({
      kind: 'fan-out',
      source,
      targets: [...targets],
      decide: fanOut as (state: Readonly<Record<string, unknown>>, source: DecisionSource) => unknown,
    });
    return this;
  }

  /**
   * Adds a bounded loop (W-1): after `from`, go back to `to` while `while(state)` holds and the
   * body has run fewer than `maxIterations` times since the loop was entered; otherwise go to
   * `exit`. The pass count is saved with `from`'s result, so recovery never resets it.
   */
  addLoop(options: LoopOptions<StateOf<Definition>>): this {
    this.definition.loops.push({
      from: options.from,
      to: options.to,
      exit: options.exit,
      maxIterations: options.maxIterations,
      onLimit: options.onLimit ?? 'exit',
      condition: options.while as (state: Readonly<Record<string, unknown>>, source: DecisionSource) => boolean,
    });
    return this;
  }

  /** Every problem of the graph as it stands, without throwing (an editor can show them). */
  validate(): WorkflowIssue[] {
    return validateGraph(this.definition);
  }

  /**
   * Validates the graph (W-4) and returns a runnable `Workflow`; throws `WorkflowValidationError`
   * with every issue when it is not valid. The builder can keep changing afterwards; a compiled
   * workflow never does (a draft edit never changes a running version).
   */
  compile(options: WorkflowOptions<Definition> = {}): Workflow<Definition> {
    const snapshot = snapshotOf(this.definition);
    const issues = validateGraph(snapshot);
    const outputFields = options.output ?? [];
    for (const field of outputFields) {
      if (!(field in snapshot.state)) {
        issues.push({
          code: 'unknown-field',
          node: '(workflow output)',
          field,
          binding: 'output',
          message: `the workflow output names the unknown state field "${field}"`,
        });
      }
    }
    if (issues.length > 0) throw new WorkflowValidationError(snapshot.name, issues);
    return new Workflow<Definition>(compileGraph(snapshot), options);
  }
}

function snapshotOf(definition: GraphDefinition): GraphDefinition {
  return {
    ...definition,
    state: { ...definition.state },
    nodes: new Map(definition.nodes),
    duplicateNodes: [...definition.duplicateNodes],
    edges: [...definition.edges],
    branches: [...definition.branches],
    loops: [...definition.loops],
  };
}
