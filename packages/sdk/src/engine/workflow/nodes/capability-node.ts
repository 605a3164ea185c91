import type { z } from 'zod';
import type { Tool } from '../../../capabilities/tools/tool.js';
import { toolResultProblem } from '../../../capabilities/tools/tool-result.js';
import { AttemptGuard } from '../../../core/attempt-guard.js';
import { failureFromToolError } from '../../../core/failure.js';
import { RunInterrupt } from '../../run/run-control.js';
import type { FieldName, StateDefinition, StateOf } from '../channels/state-fields.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import { checkContract, jsonSchemaOf } from '../graph/contracts.js';
import { enableInterrupts, InterruptSignal } from '../pregel/interrupt.js';
import type { NodeRetryPolicy } from './node-retry.js';
import { bindOutput, type OutputBinding, validateOutputBinding } from './output-binding.js';
import {
  type NodeExecution,
  NodeFailure,
  type NodeInvocation,
  type NodeValidationContext,
  type WorkflowNode,
} from './workflow-node.js';

/** Where one tool argument comes from: a state field, or a constant `{ value }`. */
export type ArgumentSource<Definition extends StateDefinition, Value> = FieldName<Definition> | { value: Value };

/** How a capability node connects a tool to the state (W-2). */
export interface CapabilityBinding<Definition extends StateDefinition, Args> {
  /**
   * The tool's arguments: a source per argument (checked against the state's schemas before the
   * graph runs, W-4), or a function of the state (checked by the tool's schema when it runs).
   * A task made by `send()` takes the send's payload as its arguments instead.
   */
  input?: { [Key in keyof Args]?: ArgumentSource<Definition, Args[Key]> } | ((state: StateOf<Definition>) => Args);
  /** Where the tool's result goes: a field (through its reducer), or a function returning an update. */
  output?: OutputBinding<Definition, unknown>;
  /** The schema of the tool's result: validated when it runs, and checked against the output field. */
  resultSchema?: z.ZodType;
  /** Timeout of the tool's attempt (C-10), bounded by the run's deadline. Default 10 s. */
  timeoutMs?: number;
  /** The node's retry policy; default: the workflow's `retry`. */
  retry?: NodeRetryPolicy;
}

/** Marker reason of a capability attempt's own timeout, told apart from control aborts by identity. */
class CapabilityTimeout {}

/**
 * The call note a capability task writes, durably, before its tool starts an attempt: which
 * attempt is open, and whether it paused on an `interrupt()` (a pause is a clean stop, not a
 * crash). The key is reserved: a tool's own notes share the task's namespace.
 */
export const OPEN_CALL_NOTE = 'agentloom.call-open';

interface OpenCall {
  attempt: number;
  paused?: true;
}

const UNKNOWN_OUTCOME_MESSAGE =
  'the tool was called, but the process running it stopped before its outcome was saved; it may or may not have taken effect';

/**
 * A workflow node that runs one tool (W-1): a built-in or custom `Tool` made by `tool()` (MCP
 * tools are `Tool`s too). Its task id is the tool call's `operationId`, stable across recovery,
 * so a tool with external effects can use it as an idempotency key. Each attempt is noted in the
 * journal before the tool is called (`OPEN_CALL_NOTE`): when the owner dies during the call, the
 * taker finds the attempt open and fails it as `unknown-outcome` instead of calling the
 * tool again unseen; the node's retry policy then decides, in the open, whether another attempt
 * is made (`retry: { attempts: 2, retryOn: ['unknown-outcome'] }` for a tool safe to repeat).
 * A `resumable` tool reconciles the open attempt from its own notes instead.
 */
export class CapabilityNode implements WorkflowNode {
  readonly kind = 'capability' as const;
  readonly tool: Tool;
  private readonly binding: CapabilityBinding<StateDefinition, Record<string, unknown>>;

  constructor(tool: Tool, binding: CapabilityBinding<StateDefinition, Record<string, unknown>> = {}) {
    this.tool = tool;
    this.binding = binding;
  }

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    const args = invocation.payload ? invocation.payload.value : this.argumentsOf(invocation.state);
    const parsed = this.tool.parameters.safeParse(args);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
      throw new NodeFailure({ kind: 'invalid-arguments', message: `invalid arguments for tool "${this.tool.name}": ${detail}` });
    }
    const result = await this.runTool(invocation, parsed.data);
    // A value JSON cannot hold would be mangled on its way into the journaled state.
    const problem = toolResultProblem(result);
    if (problem) throw new NodeFailure({ kind: 'invalid-result', message: `tool "${this.tool.name}": ${problem}` });
    if (this.binding.resultSchema) {
      const checked = this.binding.resultSchema.safeParse(result);
      if (!checked.success) {
        throw new NodeFailure({ kind: 'invalid-result', message: `tool "${this.tool.name}" returned ${checked.error.message}` });
      }
    }
    return { update: bindOutput(this.binding.output, result, invocation) };
  }

  validate(context: NodeValidationContext): WorkflowIssue[] {
    const issues: WorkflowIssue[] = [];
    const { node, state } = context;
    const input = this.binding.input;
    if (typeof input !== 'function' && !context.onlySent) {
      const parameters = jsonSchemaOf(this.tool.parameters, 'input');
      const properties = (parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : []);
      const sources = (input ?? {}) as Record<string, string | { value: unknown } | undefined>;
      for (const name of required) {
        if (sources[name] === undefined) {
          issues.push({
            code: 'missing-binding',
            node,
            binding: `input.${name}`,
            message: `node "${node}": the required argument "${name}" of tool "${this.tool.name}" has no source`,
          });
        }
      }
      for (const [name, source] of Object.entries(sources)) {
        if (typeof source !== 'string') continue;
        const field = state[source];
        if (!field) {
          issues.push({
            code: 'unknown-field',
            node,
            field: source,
            binding: 'input',
            message: `node "${node}": argument "${name}" reads the unknown state field "${source}"`,
          });
          continue;
        }
        const accepted = properties[name];
        if (!accepted) continue;
        const check = checkContract(jsonSchemaOf(field.valueSchema, 'output'), accepted);
        if (!check.ok) {
          issues.push({
            code: 'data-contract-mismatch',
            node,
            binding: `input.${name}`,
            field: source,
            expected: check.expected,
            actual: check.actual,
            message: `node "${node}": argument "${name}" of tool "${this.tool.name}" expects ${check.expected}, but field "${source}" holds ${check.actual}`,
          });
        }
      }
    }
    const produced = this.binding.resultSchema ? jsonSchemaOf(this.binding.resultSchema, 'output') : {};
    issues.push(...validateOutputBinding(node, this.binding.output, produced, state));
    return issues;
  }

  writtenFields(): readonly string[] {
    return typeof this.binding.output === 'string' ? [this.binding.output] : [];
  }

  describe(): string {
    return `capability:${this.tool.name}:${JSON.stringify(jsonSchemaOf(this.tool.parameters, 'input'))}`;
  }

  private argumentsOf(state: Readonly<Record<string, unknown>>): unknown {
    const input = this.binding.input;
    if (typeof input === 'function') return input(state as StateOf<StateDefinition>);
    const args: Record<string, unknown> = {};
    for (const [name, source] of Object.entries(input ?? {})) {
      if (source === undefined) continue;
      args[name] = typeof source === 'string' ? state[source] : (source as { value: unknown }).value;
    }
    return args;
  }

  /**
   * Notes the attempt as open before the tool runs, or refuses to run it again when the same
   * attempt is already open: its owner died during the call and nobody knows what it did.
   */
  private async openCall(invocation: NodeInvocation): Promise<void> {
    if (this.tool.resumable || invocation.durability === 'exit') return;
    const open = invocation.callJournal.read(OPEN_CALL_NOTE) as OpenCall | undefined;
    if (open?.attempt === invocation.attempt && !open.paused) {
      throw new NodeFailure({
        kind: 'tool-failed',
        message: `tool "${this.tool.name}": ${UNKNOWN_OUTCOME_MESSAGE}`,
        failure: { kind: 'unknown-outcome', message: UNKNOWN_OUTCOME_MESSAGE },
      });
    }
    await invocation.callJournal.write(OPEN_CALL_NOTE, { attempt: invocation.attempt } satisfies OpenCall);
  }

  private async runTool(invocation: NodeInvocation, args: unknown): Promise<unknown> {
    await this.openCall(invocation);
    const remaining = invocation.deadlineAt - invocation.now();
    const timeoutMs = this.binding.timeoutMs ?? 10_000;
    const guard = new AttemptGuard(invocation.hardSignal);
    const timeout = new CapabilityTimeout();
    // When the run's deadline comes first, the run's own timer cuts the call (control flow, X-3).
    if (timeoutMs < remaining) guard.setTimer(timeoutMs, () => guard.fire(timeout));
    try {
      const context = enableInterrupts(
        {
          runId: invocation.runId,
          sessionId: invocation.sessionId,
          taskId: invocation.taskId,
          operationId: invocation.taskId,
          attempt: invocation.attempt,
          get signal() {
            return guard.signal;
          },
          callJournal: invocation.callJournal,
        },
        invocation.taskId,
        invocation.node,
        invocation.resumeValues,
      );
      return await guard.race(Promise.resolve().then(() => this.tool.execute(args, context)));
    } catch (error) {
      if (InterruptSignal.isInstance(error)) {
        // The tool paused for an answer: running it again with the answer is expected, not a redo.
        if (!this.tool.resumable && invocation.durability !== 'exit') {
          await invocation.callJournal.write(OPEN_CALL_NOTE, { attempt: invocation.attempt, paused: true } satisfies OpenCall);
        }
        throw error;
      }
      if (RunInterrupt.isInstance(invocation.hardSignal.reason)) throw invocation.hardSignal.reason;
      if (guard.firedReason?.reason === timeout) {
        throw new NodeFailure({
          kind: 'tool-failed',
          message: `tool "${this.tool.name}" ran past its ${timeoutMs} ms timeout`,
          failure: { kind: 'timeout', message: `the attempt ran past its ${timeoutMs} ms timeout` },
        });
      }
      const failure = failureFromToolError(error);
      throw new NodeFailure({ kind: 'tool-failed', message: `tool "${this.tool.name}" failed: ${failure.message}`, failure });
    } finally {
      guard.dispose();
    }
  }
}
