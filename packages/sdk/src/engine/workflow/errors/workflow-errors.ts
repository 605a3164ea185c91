import { AgentLoomError, hasErrorCode } from '../../../core/errors/agentloom-error.js';

/**
 * One problem `validate` found in a workflow graph before it could run (W-4). A discriminated
 * union on `code`, so that an editor (the platform's canvas) can point at the exact node, edge or
 * binding; `message` says the same thing in words.
 */
export type WorkflowIssue =
  /** Two nodes share a name. */
  | { code: 'duplicate-node'; node: string; message: string }
  /** A name that the engine keeps for itself (`__start__`, `__end__`, names with `:` or `/`). */
  | { code: 'reserved-name'; name: string; message: string }
  /** An edge, a route or a loop names a node that does not exist. */
  | { code: 'unknown-node'; node: string; referencedBy: string; message: string }
  /** Nothing leaves `START`: the graph has no entry. */
  | { code: 'no-entry'; message: string }
  /** No path from `START` reaches the node. */
  | { code: 'unreachable-node'; node: string; message: string }
  /** A node lacks a binding it needs: its input, or a source for a required tool argument. */
  | { code: 'missing-binding'; node: string; binding: string; message: string }
  /** A binding names a state field the workflow does not have. */
  | { code: 'unknown-field'; node: string; field: string; binding: 'input' | 'output'; message: string }
  /** A binding joins two data contracts that cannot agree (a number field feeding a string argument). */
  | {
      code: 'data-contract-mismatch';
      node: string;
      /** What is bound: `input.<argument>` or `output`. */
      binding: string;
      field: string;
      /** The JSON Schema type the receiving side accepts, and the one the sending side produces. */
      expected: string;
      actual: string;
      message: string;
    }
  /** A cycle that no `addLoop` bounds: it could run until the step limit (W-1 asks for bounded loops). */
  | { code: 'unbounded-cycle'; nodes: readonly string[]; message: string }
  /** Two nodes that run in the same superstep write one single-value field that refuses conflicts. */
  | { code: 'conflicting-writes'; field: string; nodes: readonly string[]; message: string }
  /** A node's retry policy is malformed, or given to an agent node (which keeps its agent's own). */
  | { code: 'invalid-retry-policy'; node: string; message: string }
  /** A conditional edge or a loop that is malformed (no targets, a bound below 1, END as a send target). */
  | { code: 'invalid-edge'; node: string; message: string };

/**
 * Thrown by `compile()` when the graph is not valid (W-4). `issues` lists every problem at once,
 * each typed by `code`; nothing has run and nothing was stored.
 */
export class WorkflowValidationError extends AgentLoomError {
  readonly workflow: string;
  readonly issues: readonly WorkflowIssue[];

  constructor(workflow: string, issues: readonly WorkflowIssue[]) {
    const list = issues.map((issue) => `  - [${issue.code}] ${issue.message}`).join('\n');
    super('invalid-workflow', `Workflow "${workflow}" is not valid:\n${list}`);
    this.workflow = workflow;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is WorkflowValidationError {
    return hasErrorCode(error, 'invalid-workflow');
  }
}

/**
 * A conditional edge's route returned a target that the graph does not declare for it (W-3):
 * model-produced data may choose among declared paths only, never invent one. The node's task
 * fails and nothing runs on the undeclared path.
 */
export class UndeclaredRouteError extends AgentLoomError {
  readonly node: string;
  readonly route: string;
  readonly declared: readonly string[];

  constructor(node: string, route: string, declared: readonly string[]) {
    super(
      'undeclared-route',
      `The route after node "${node}" chose "${route}", which is not one of its declared targets (${declared.join(', ')}).`,
    );
    this.node = node;
    this.route = route;
    this.declared = declared;
  }

  static override isInstance(error: unknown): error is UndeclaredRouteError {
    return hasErrorCode(error, 'undeclared-route');
  }
}

/**
 * A state update (a workflow input, or a node's result through its output binding) names an
 * unknown field or breaks a field's schema. Nothing of the update is applied.
 */
export class InvalidStateUpdateError extends AgentLoomError {
  /** The node whose update was refused, or `input` for the workflow input. */
  readonly source: string;
  readonly field: string;

  constructor(source: string, field: string, detail: string) {
    super('invalid-state-update', `Invalid update of state field "${field}" by ${source}: ${detail}.`);
    this.source = source;
    this.field = field;
  }

  static override isInstance(error: unknown): error is InvalidStateUpdateError {
    return hasErrorCode(error, 'invalid-state-update');
  }
}

/** `interrupt()` was given a context that is not a workflow capability task's (a tool inside an agent, say). */
export class InterruptOutsideWorkflowError extends AgentLoomError {
  constructor() {
    super(
      'interrupt-outside-workflow',
      'interrupt(context, value) needs the execution context of a tool running as a workflow capability node (not a tool inside an agent).',
    );
  }

  static override isInstance(error: unknown): error is InterruptOutsideWorkflowError {
    return hasErrorCode(error, 'interrupt-outside-workflow');
  }
}

/** A loop with `onLimit: 'fail'` reached its `maxIterations` while its condition still held. */
export class LoopLimitReachedError extends AgentLoomError {
  /** The loop's `from` node. */
  readonly loop: string;
  readonly maxIterations: number;

  constructor(loop: string, maxIterations: number) {
    super(
      'loop-limit-reached',
      `The loop after node "${loop}" reached its limit of ${maxIterations} iterations with its condition still true.`,
    );
    this.loop = loop;
    this.maxIterations = maxIterations;
  }

  static override isInstance(error: unknown): error is LoopLimitReachedError {
    return hasErrorCode(error, 'loop-limit-reached');
  }
}

/**
 * `continueFrom` or `rerunFrom` named a run that cannot be continued: it does not exist, is not
 * a run of this workflow's graph, has not ended as the option needs, or names no such node.
 */
export class RunNotContinuableError extends AgentLoomError {
  readonly sourceRunId: string;

  constructor(sourceRunId: string, detail: string) {
    super('run-not-continuable', `Run ${sourceRunId} cannot be continued: ${detail}.`);
    this.sourceRunId = sourceRunId;
  }

  static override isInstance(error: unknown): error is RunNotContinuableError {
    return hasErrorCode(error, 'run-not-continuable');
  }
}
