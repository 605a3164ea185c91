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

  constructor(role: RoleDefinition, options: { description: string; inputSchema?: z.ZodType }) {
    super(role);
    this.description = options.description;
    this.inputSchema = options.inputSchema;
  }

  /** The definition the planner's model sees for delegating to this role. */
  delegationDefinition(): ToolDefinition {
    const schema = this.inputSchema ?? defaultTaskSchema;
    return {
      name: this.role.name,
      description: `Delegates a task to the "${this.role.name}" executor, which works alone and returns its final result. ${this.description}`,
      inputSchema: z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>,
      kind: 'delegation',
    };
  }

  /**
   * Validates a delegation's arguments against the role's task contract (C-13) and writes the
   * executor's first message: the explicit task, constraints and material, nothing of the
   * planner's prompt or history (L-5).
   */
  taskInput(args: unknown): TaskInput {
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
