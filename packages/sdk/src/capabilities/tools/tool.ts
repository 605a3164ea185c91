import { z } from 'zod';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { zodSchemaProblem } from '../../core/zod-schema-check.js';
import type { ToolDefinition } from '../../model/language-model.js';

/** What a tool's `execute` receives besides its arguments: trusted identity and a signal. */
export interface ToolExecutionContext {
  runId: string;
  sessionId: string;
  /** The task (role execution) that issued the call. */
  taskId: string;
  /** Stable identity of the logical call; the same across retries and recovery. */
  operationId: string;
  /** 1-based attempt number of this logical call. */
  attempt: number;
  /** Aborted on attempt timeout, stop, deadline or lost ownership. Honour it. */
  signal: AbortSignal;
  /** The agent making the call, when an agent makes it. */
  agentName?: string;
  /** The run's labels as the host gave them (`userId` scopes memory, N-15). */
  metadata?: Readonly<Record<string, string>>;
  /**
   * The durable notes of this logical call, kept in the run's journal: what a tool writes
   * here before an external effect is read back by the attempt that continues the call after a
   * crash or a takeover. Present in agent runs and workflow capability nodes.
   */
  callJournal?: CallJournal;
  /**
   * Asks the run for outside input and returns the answer (a workflow's `interrupt()`): present
   * only where the engine can pause durably (a workflow capability node). The first call pauses
   * the run; the call is executed again once the run is resumed, and then returns the answer.
   */
  requestInput?: <Answer = unknown>(value: unknown) => Answer;
  /**
   * Asks the run for a decision (an approval request of the run, K-5) and waits for it: present in
   * agent runs. Journaled once per `key` (asked again after a crash, it waits for the same
   * request), decided by the agent's approval port or `RunClient.decideApproval` from any machine,
   * denied at the approval timeout. The wait does not count toward the attempt's timeout; the run's
   * deadline and a stop still end it.
   */
  requestApproval?: (request: {
    key: string;
    reason: string;
  }) => Promise<{ approved: boolean; reason?: string; decidedBy: string }>;
  /**
   * Puts a question from an MCP server to the run's user and waits for the answer (`elicitation/
   * create`, N-8, ADR 0038): present in agent runs. Journaled once per `key` with its requested
   * schema (asked again after a crash, it waits for the same question); answered only by a person
   * through `RunClient.answerElicitation` (the content checked against the schema), cancelled at
   * the approval timeout. Like `requestApproval`, the wait does not count toward the attempt's
   * timeout; the run's deadline and a stop still end it.
   */
  requestElicitation?: (question: {
    key: string;
    server: string;
    message: string;
    mode: 'form' | 'url';
    requestedSchema?: Record<string, unknown>;
    url?: string;
  }) => Promise<{
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, string | number | boolean | string[]>;
    answeredBy: string;
  }>;
}

/**
 * The durable notes of one logical tool call (operation), by key: written to the run's journal
 * before `write` resolves, and read by every later attempt, owner and process of the same call.
 * A tool that must never repeat an effect (send a message, charge a card) writes its intent here
 * first, and on a later execution reads it to continue instead of starting again.
 */
export interface CallJournal {
  /** The value noted under `key` by this call so far, or `undefined`. */
  read(key: string): unknown;
  /** Records `value` (JSON) under `key`; resolves once it is durable in the run's journal. */
  write(key: string, value: unknown): Promise<void>;
}

/** A capability the model can call. Create one with `tool()`. */
export interface Tool<Parameters extends z.ZodType = z.ZodType> {
  readonly kind: 'tool';
  readonly name: string;
  readonly description: string;
  readonly parameters: Parameters;
  /** Runs the tool. Returns text, or any JSON value (sent to the model as JSON text). */
  execute(args: z.output<Parameters>, context: ToolExecutionContext): Promise<unknown> | unknown;
  /**
   * `true` when the tool continues a call from its `callJournal` notes: an attempt left open by a
   * crash is then executed again (same attempt number) instead of being recorded `unknown`, and the
   * tool itself reconciles what the dead attempt did. Default: not resumable.
   */
  readonly resumable?: boolean;
}

/** Options of `tool()`. */
export interface ToolOptions<Parameters extends z.ZodType> {
  /** Letters, digits, `_` and `-`, at most 64 characters (the common limit of model APIs). */
  name: string;
  /** What the tool does and when to use it; the model reads this. */
  description: string;
  /**
   * A zod 4 schema of the arguments; model arguments are validated against it before running. A
   * zod 3 schema is refused with a message saying so (use zod 4, or `jsonSchemaTool`).
   */
  parameters: Parameters;
  execute(args: z.output<Parameters>, context: ToolExecutionContext): Promise<unknown> | unknown;
  /** See `Tool.resumable`: only for a tool that reconciles its own calls from `callJournal`. */
  resumable?: boolean;
}

const toolOptionsSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, 1 to 64 characters'),
  description: z.string().min(1, 'say what the tool does and when to use it'),
  parameters: z.custom<z.ZodType>().superRefine((value, context) => {
    const problem = zodSchemaProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
  execute: z.custom<(...args: unknown[]) => unknown>((value) => typeof value === 'function', 'must be a function'),
  resumable: z.boolean().optional(),
});

/**
 * Defines a tool. The options are validated at once, so a misconfigured tool fails where it is
 * written, not in the middle of a run.
 *
 * @example
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers.',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 */
export function tool<Parameters extends z.ZodType>(options: ToolOptions<Parameters>): Tool<Parameters> {
  const parsed = toolOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new InvalidConfigurationError(
      `tool "${String((options as { name?: unknown })?.name)}"`,
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  return Object.freeze({
    kind: 'tool' as const,
    name: options.name,
    description: options.description,
    parameters: options.parameters,
    execute: options.execute,
    ...(options.resumable ? { resumable: true } : {}),
  });
}

/** Whether `value` was made by `tool()`. */
export function isTool(value: unknown): value is Tool {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'tool' &&
    typeof (value as { execute?: unknown }).execute === 'function'
  );
}

/** The definition the model sees: name, description and JSON Schema 2020-12 of the input. */
export function toToolDefinition(definedTool: Tool): ToolDefinition {
  const schema = z.toJSONSchema(definedTool.parameters, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return { name: definedTool.name, description: definedTool.description, inputSchema: schema };
}
