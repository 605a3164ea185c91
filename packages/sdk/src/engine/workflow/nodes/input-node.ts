import { abortableSleep } from '../../../core/abortable-sleep.js';
import { compileJsonSchema, type JsonSchema } from '../../../core/json-schema/json-schema-validator.js';
import type { StateDefinition } from '../channels/state-fields.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import { INPUT_NOTE_KEY, type InputRequest } from '../input/input-requests.js';
import { bindOutput, type OutputBinding, validateOutputBinding } from './output-binding.js';
import type { NodeExecution, NodeInvocation, NodeValidationContext, WorkflowNode } from './workflow-node.js';

/** The timeout of an input: after `afterMs`, `outcome` is recorded as the answer (durably, once). */
export interface InputTimeout {
  afterMs: number;
  outcome: unknown;
}

/** What an input node asks, and where its answer goes. */
export interface InputNodeOptions<Definition extends StateDefinition = StateDefinition> {
  /** The question; `{{field}}` placeholders are filled from the state when it is asked. */
  question: string;
  /** The JSON Schema an answer must match (checked when it is given, before it is written). */
  schema?: JsonSchema;
  /** The answers offered; when set, an answer must be one of them. */
  choices?: readonly unknown[];
  /** Where the answer goes: a state field (through its reducer). */
  output?: OutputBinding<Definition, unknown>;
  /** Without one, the run waits until it is answered, stopped or past its own deadline. */
  timeout?: InputTimeout;
  /** First wait between reads of the journal for an answer; doubles up to 1 s. Default 50. */
  pollMs?: number;
}

/**
 * A node that asks a person (human in the loop, P-14.1, issue 36). The first time its task runs it saves
 * the question (a `task-noted` entry: the question, the answer's schema, the choices, the timeout's
 * deadline), then waits, holding the run, for an `input-answered` entry that anyone may append
 * through `RunClient.answerInput` (the store's external append, like supplements and approval
 * decisions). Exactly one answer is taken: the first in the journal. When the timeout passes
 * first, the owner records the declared outcome as the answer, with the same rule. Its answer
 * goes to the output field. After a crash, the next owner runs the task again: it finds the saved
 * question (the same deadline, never a fresh one) and the answer if one came, and goes on.
 */
export class InputNode implements WorkflowNode {
  readonly kind = 'input' as const;
  private readonly options: InputNodeOptions;

  constructor(options: InputNodeOptions) {
    this.options = options;
  }

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    const interruptId = `${invocation.taskId}#input`;
    const { syncJournal, recordAnswer } = invocation;
    if (!syncJournal || !recordAnswer) throw new TypeError('an input node runs inside a workflow run only');
    if (!invocation.resumeValues.has(interruptId)) {
      let request = invocation.callJournal.read(INPUT_NOTE_KEY) as InputRequest | undefined;
      if (!request) {
        request = this.requestOf(interruptId, invocation);
        await invocation.callJournal.write(INPUT_NOTE_KEY, request);
      }
      let wait = this.options.pollMs ?? 50;
      while (!invocation.resumeValues.has(interruptId)) {
        if (invocation.signal.aborted) throw invocation.signal.reason;
        if (request.deadlineAt !== undefined && invocation.now() >= request.deadlineAt) {
          await recordAnswer({ interruptId, value: request.timeoutOutcome, answeredBy: 'timeout', timedOut: true });
          continue;
        }
        const untilDeadline = request.deadlineAt === undefined ? wait : Math.max(0, request.deadlineAt - invocation.now());
        await abortableSleep(Math.min(wait, untilDeadline), invocation.signal);
        await syncJournal();
        wait = Math.min(1000, wait * 2);
      }
    }
    return { update: bindOutput(this.options.output as never, invocation.resumeValues.get(interruptId), invocation) };
  }

  validate(context: NodeValidationContext): WorkflowIssue[] {
    const issues: WorkflowIssue[] = [];
    if (this.options.schema) {
      const compiled = compileJsonSchema(this.options.schema);
      if (!compiled.ok)
        issues.push({
          code: 'missing-binding',
          node: context.node,
          binding: 'schema',
          message: `node "${context.node}": its answer schema does not compile: ${compiled.problems.join('; ')}`,
        });
    }
    const produced = this.options.schema ?? {};
    issues.push(...validateOutputBinding(context.node, this.options.output as never, produced, context.state));
    return issues;
  }

  writtenFields(): readonly string[] {
    return typeof this.options.output === 'string' ? [this.options.output] : [];
  }

  describe(): string {
    const { question, schema, choices, timeout } = this.options;
    return `input:${JSON.stringify({ question, schema, choices, timeout })}`;
  }

  private requestOf(interruptId: string, invocation: NodeInvocation): InputRequest {
    const { schema, choices, timeout } = this.options;
    return {
      interruptId,
      question: this.options.question.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_match, name: string) => {
        const value = invocation.state[name];
        return typeof value === 'string' ? value : JSON.stringify(value ?? null);
      }),
      ...(schema ? { schema } : {}),
      ...(choices ? { choices: [...choices] } : {}),
      ...(timeout ? { deadlineAt: invocation.now() + timeout.afterMs, timeoutOutcome: timeout.outcome } : {}),
    };
  }
}
