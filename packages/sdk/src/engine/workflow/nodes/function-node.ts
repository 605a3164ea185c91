import type { ToolExecutionContext } from '../../../capabilities/tools/tool.js';
import { AttemptGuard } from '../../../core/attempt-guard.js';
import { failureFromToolError } from '../../../core/failure.js';
import { RunInterrupt } from '../../run/run-control.js';
import type { StateDefinition, StateOf, UpdateOf } from '../channels/state-fields.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import type { Send } from '../graph/graph-definition.js';
import { enableInterrupts, InterruptSignal } from '../pregel/interrupt.js';
import {
  type NodeExecution,
  NodeFailure,
  type NodeInvocation,
  type NodeValidationContext,
  type WorkflowNode,
} from './workflow-node.js';

/**
 * What a function node receives besides the state: the identity of its task (`operationId` is
 * the task id, the same on every attempt and after recovery: use it as an idempotency key), the
 * attempt number, the signal to honour, and the payload of the `send()` that made the task. Pass
 * it to `interrupt()` to pause the run for outside input.
 */
export interface FunctionNodeContext extends ToolExecutionContext {
  /** The workflow node's name. */
  node: string;
  /** The superstep. */
  step: number;
  /** The payload of the `send()` that made this task; `undefined` for a task made by an edge. */
  payload: unknown;
}

/**
 * A node's command (LangGraph's `Command`, written here): a state update plus where to go next —
 * node names (or END) and `send()`s with payloads of their own. Every target must be declared in
 * the node's `goto` option (W-3: declared paths only); anything else fails the node with
 * `UndeclaredRouteError`.
 */
export interface Command<Definition extends StateDefinition = StateDefinition> {
  readonly kind: 'command';
  readonly update: UpdateOf<Definition>;
  readonly goto: readonly (string | Send)[];
}

/**
 * Makes a command: `return command({ update: { draft }, goto: ['review', send('check', { part })] })`.
 * The targets must be listed in the node's `goto` option.
 */
export function command<Definition extends StateDefinition = StateDefinition>(options: {
  update?: UpdateOf<Definition>;
  goto: string | Send | readonly (string | Send)[];
}): Command<Definition> {
  const goto = Array.isArray(options.goto) ? [...options.goto] : [options.goto as string | Send];
  return Object.freeze({ kind: 'command' as const, update: options.update ?? ({} as UpdateOf<Definition>), goto });
}

/** Whether `value` is a command made by `command()`. */
export function isCommand(value: unknown): value is Command {
  return (
    typeof value === 'object' && value !== null && (value as Command).kind === 'command' && Array.isArray((value as Command).goto)
  );
}

/** The function of a function node: the state in, an update (or a command, or nothing) out. */
export type NodeFunction<Definition extends StateDefinition> = (
  state: StateOf<Definition>,
  context: FunctionNodeContext,
) => UpdateOf<Definition> | Command<Definition> | undefined | Promise<UpdateOf<Definition> | Command<Definition> | undefined>;

/**
 * A workflow node that is plain code (`addNode(name, (state, context) => update)`): the lightest
 * way to write a step. Its update is validated field by field like any node's, saved the moment
 * it finishes and never recomputed after recovery; a task whose update was not saved before
 * a crash runs again, with the same `operationId` (at least once, X-7). Errors it throws fail the
 * task as `node-error`, typed with the attempt failure classification (`connection`,
 * `tool-error` …) so that a retry policy can tell transient failures apart.
 */
export class FunctionNode implements WorkflowNode {
  readonly kind = 'function' as const;
  private readonly run: NodeFunction<StateDefinition>;
  private readonly timeoutMs: number | undefined;

  constructor(run: NodeFunction<StateDefinition>, options: { timeoutMs?: number } = {}) {
    this.run = run;
    this.timeoutMs = options.timeoutMs;
  }

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    const guard = new AttemptGuard(invocation.hardSignal);
    const timeout = this.timeoutMs;
    const marker = {};
    if (timeout !== undefined && timeout < invocation.deadlineAt - invocation.now())
      guard.setTimer(timeout, () => guard.fire(marker));
    const context = enableInterrupts(
      {
        runId: invocation.runId,
        sessionId: invocation.sessionId,
        taskId: invocation.taskId,
        operationId: invocation.taskId,
        attempt: invocation.attempt,
        node: invocation.node,
        step: invocation.step,
        payload: invocation.payload?.value,
        get signal() {
          return guard.signal;
        },
      } as FunctionNodeContext,
      invocation.taskId,
      invocation.node,
      invocation.resumeValues,
    ) as FunctionNodeContext;
    let produced: unknown;
    try {
      produced = await guard.race(Promise.resolve().then(() => this.run(invocation.state as StateOf<StateDefinition>, context)));
    } catch (error) {
      if (InterruptSignal.isInstance(error) || NodeFailure.isInstance(error)) throw error;
      if (RunInterrupt.isInstance(invocation.hardSignal.reason)) throw invocation.hardSignal.reason;
      if (guard.firedReason?.reason === marker) {
        throw new NodeFailure({
          kind: 'node-error',
          message: `node "${invocation.node}" ran past its ${timeout} ms timeout`,
          failure: { kind: 'timeout', message: `the attempt ran past its ${timeout} ms timeout` },
        });
      }
      if (RunInterrupt.isInstance(error)) throw error;
      const failure = failureFromToolError(error);
      throw new NodeFailure({ kind: 'node-error', message: `node "${invocation.node}" failed: ${failure.message}`, failure });
    } finally {
      guard.dispose();
    }
    if (produced === undefined || produced === null) return { update: {} };
    if (isCommand(produced)) return { update: { ...produced.update }, goto: produced.goto };
    if (typeof produced !== 'object' || Array.isArray(produced)) {
      throw new NodeFailure({
        kind: 'invalid-state-update',
        message: `node "${invocation.node}" returned ${Array.isArray(produced) ? 'an array' : typeof produced}, not a state update`,
      });
    }
    return { update: produced as Record<string, unknown> };
  }

  validate(_context: NodeValidationContext): WorkflowIssue[] {
    return [];
  }

  describe(): string {
    return 'function';
  }
}
