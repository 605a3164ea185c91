import type { Tool } from '../../../capabilities/tools/tool.js';
import { toToolDefinition } from '../../../capabilities/tools/tool.js';
import type { ToolDefinition } from '../../../model/language-model.js';
import { runOperation } from '../operation-runner.js';
import type { RoleDefinition, RunContext } from '../run-context.js';

/**
 * A remote executor role (D-1, L-2; `a2aAgent()`): the planner's model sees it as a delegation
 * like a local executor (L-3), and each delegation is one logical call of the role's tool, run by
 * the operation runner — gated as a delegation, its intent journaled before each attempt, its
 * result committed once. A resumable tool continues an attempt a crash left open from
 * its call notes instead of starting it again. The remote agent keeps its own context (L-5).
 */
export class RemoteExecutorNode {
  readonly role: RoleDefinition;
  readonly description: string;
  readonly tool: Tool;

  constructor(role: { name: string; description: string; tool: Tool }) {
    this.role = { name: role.name, prompt: '', tools: new Map(), toolDefinitions: [] };
    this.description = role.description;
    this.tool = role.tool;
  }

  /** The definition the planner's model sees for delegating to this role. */
  delegationDefinition(): ToolDefinition {
    const definition = toToolDefinition(this.tool);
    return {
      name: this.role.name,
      description: `Delegates a task to the "${this.role.name}" executor, a remote agent that works alone and returns its final result. ${this.description}`,
      inputSchema: definition.inputSchema,
      kind: 'delegation',
    };
  }

  /** Runs one delegation to its result (the planner's role supplies the run's gate and hooks). */
  run(context: RunContext, planner: RoleDefinition, operationId: string): Promise<void> {
    return runOperation(context, planner, operationId, this.tool, 'delegation');
  }
}
