import { z } from 'zod';
import type { ToolDefinition } from '../../../model/language-model.js';
import type { RoleDefinition } from '../run-context.js';
import { ReactNode } from './react-node.js';

/** The task arguments a planner sends when an executor role declares no input schema (L-5). */
export const defaultTaskSchema = z
  .object({
    task: z.string().min(1).describe('What the executor must do, stated completely: it sees nothing else.'),
    constraints: z.string().optional().describe('Rules and limits the executor must respect.'),
    material: z.string().optional().describe('Facts, data or text the executor needs.'),
  })
  .strict();

/** How a delegation's arguments became the executor's first message, or why they are invalid. */
export type TaskInput = { ok: true; message: string } | { ok: false; problem: string };

/**
 * An executor role (D-1, L-2, L-5): a ReAct node that works one delegated task in its own private
 * context, with its own prompt and tools, and never delegates further. The planner's model sees
 * it as a tool marked as delegation (L-3), whose arguments follow the role's input schema.
 */
export class ExecutorNode extends ReactNode {
  readonly description: string;
  readonly inputSchema: z.ZodType | undefined;
  /** A background role (N-7): a delegation returns at once and the result arrives later as an input. */
  readonly background: boolean;

  constructor(role: RoleDefinition, options: { description: string; inputSchema?: z.ZodType; background?: boolean }) {
    super(role);
    this.description = options.description;
    this.inputSchema = options.inputSchema;
    this.background = options.background ?? false;
  }

  /** The definition the planner's model sees for delegating to this role. */
  delegationDefinition(): ToolDefinition {
    const schema = this.inputSchema ?? defaultTaskSchema;
    const inputSchema = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    if (!this.background) {
      return {
        name: this.role.name,
        description: `Delegates a task to the "${this.role.name}" executor, which works alone and returns its final result. ${this.description}`,
        inputSchema,
        kind: 'delegation',
      };
    }
    const properties = (inputSchema.properties ?? {}) as Record<string, unknown>;
    return {
      name: this.role.name,
      description:
        `Starts a task of the "${this.role.name}" executor in the background and returns its task id at once: keep working; ` +
        'its final result arrives later as a message. To continue a finished task with its own history, call again with ' +
        `resumeTaskId. ${this.description}`,
      inputSchema: {
        ...inputSchema,
        properties: {
          ...properties,
          [resumeTaskIdKey]: { type: 'string', description: 'The id of a finished background task of this role to continue.' },
        },
      },
      kind: 'delegation',
    };
  }

  /**
   * Validates a delegation's arguments against the role's task contract (C-13) and writes the
   * executor's first message: the explicit task, constraints and material, nothing of the
   * planner's prompt or history (L-5). A background role's `resumeTaskId` is not part of it.
   */
  taskInput(given: unknown): TaskInput {
    const args = this.background ? withoutResumeId(given) : given;
    if (this.inputSchema) {
      const parsed = this.inputSchema.safeParse(args);
      if (!parsed.success) return { ok: false, problem: describeIssues(parsed.error) };
      return { ok: true, message: `Your task (JSON input):\n${JSON.stringify(parsed.data, null, 2)}` };
    }
    const parsed = defaultTaskSchema.safeParse(args);
    if (!parsed.success) return { ok: false, problem: describeIssues(parsed.error) };
    const parts = [`Task:\n${parsed.data.task}`];
    if (parsed.data.constraints) parts.push(`Constraints:\n${parsed.data.constraints}`);
    if (parsed.data.material) parts.push(`Material:\n${parsed.data.material}`);
    return { ok: true, message: parts.join('\n\n') };
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
}

/** The argument by which a planner resumes a finished background task (N-7). */
export const resumeTaskIdKey = 'resumeTaskId';

/** The id of the background task a delegation resumes, if it names one. */
export function resumeTaskIdOf(args: unknown): string | undefined {
  const value = (args as Record<string, unknown> | null | undefined)?.[resumeTaskIdKey];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function withoutResumeId(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || !(resumeTaskIdKey in args)) return args;
  const { [resumeTaskIdKey]: _resume, ...rest } = args as Record<string, unknown>;
  return rest;
}
