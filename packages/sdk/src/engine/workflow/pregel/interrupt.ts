import type { ToolExecutionContext } from '../../../capabilities/tools/tool.js';
import { InterruptOutsideWorkflowError } from '../errors/workflow-errors.js';

/** One pause a task asked for: what it showed the caller, and the id a resume answers. */
export interface WorkflowInterrupt {
  /** `<taskId>#<n>`: the n-th `interrupt()` call of that task, stable across resumes. */
  id: string;
  taskId: string;
  node: string;
  /** The value passed to `interrupt()`, for the human or system that will answer. */
  value: unknown;
}

/** The interrupt state of one execution of a capability task. */
interface InterruptScope {
  taskId: string;
  node: string;
  calls: number;
  resumeValues: ReadonlyMap<string, unknown>;
}

/**
 * Where a capability node's tool execution context carries its task's interrupt scope: on the
 * context object itself, rather than in an AsyncLocalStorage (which Node 20 builds on promise
 * hooks that slow every promise of the process once enabled, agents included) or a WeakMap
 * (which costs the garbage collector for every short-lived context).
 */
const SCOPE = Symbol('agentloom.interrupt-scope');

type ScopedContext = ToolExecutionContext & { [SCOPE]?: InterruptScope };

/**
 * Thrown through a tool by `interrupt()` when no answer is saved yet: the engine records the
 * interrupt, lets the superstep's other tasks finish and pauses the run. It is not an error; a
 * tool must let it pass (do not catch it).
 */
export class InterruptSignal {
  readonly interrupt: WorkflowInterrupt;

  constructor(interrupt: WorkflowInterrupt) {
    this.interrupt = interrupt;
  }

  /** Whether `value` is an `InterruptSignal`. */
  static isInstance(value: unknown): value is InterruptSignal {
    return value instanceof InterruptSignal;
  }
}

/**
 * Pauses the workflow for outside input (human in the loop), from a tool running as a capability
 * node: pass the tool's execution context. The first time, the run pauses: `result()` reports
 * `status: 'interrupted'` with `value` in `interrupts`, and the run keeps its place in the store.
 * When the caller resumes the same run id with `resume`, the task runs again from its start and
 * this call returns the resume value. Several calls in one task are answered in order. The answer
 * is saved, so a crash after the resume never asks again. A tool running anywhere else (inside an
 * agent) gets `InterruptOutsideWorkflowError`.
 *
 * @example
 * const approve = tool({
 *   name: 'approve', description: 'Asks a person to approve the draft.',
 *   parameters: z.object({ draft: z.string() }),
 *   execute: ({ draft }, context) => interrupt<string>(context, { question: 'Publish this?', draft }),
 * });
 */
export function interrupt<Resume = unknown>(context: ToolExecutionContext, value: unknown): Resume {
  const scope = (context as ScopedContext)[SCOPE];
  if (!scope) throw new InterruptOutsideWorkflowError();
  const id = `${scope.taskId}#${scope.calls}`;
  scope.calls += 1;
  if (scope.resumeValues.has(id)) return scope.resumeValues.get(id) as Resume;
  throw new InterruptSignal({ id, taskId: scope.taskId, node: scope.node, value });
}

/** Makes `context` the execution context of task `taskId`, where `interrupt()` answers from `resumeValues`. */
export function enableInterrupts(
  context: ToolExecutionContext,
  taskId: string,
  node: string,
  resumeValues: ReadonlyMap<string, unknown>,
): ToolExecutionContext {
  (context as ScopedContext)[SCOPE] = { taskId, node, calls: 0, resumeValues };
  context.requestInput = <Answer>(value: unknown) => interrupt<Answer>(context, value);
  return context;
}
