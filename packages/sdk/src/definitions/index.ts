/**
 * Definitions as data: the published, versioned JSON format of agents and workflows (zod schemas,
 * exported as JSON Schema files in `packages/sdk/schemas/`), and `createAgent` / `createWorkflow`,
 * which build them with a registry that resolves the names they use.
 */
export {
  type AgentDefinition,
  agentDefinitionSchema,
  type CapabilityReferences,
  type HookReference,
  type PlanExecutorAgentDefinition,
  type ReactAgentDefinition,
} from './agent-definition.js';
export { type Comparison, type Condition, conditionSchema, evaluateCondition } from './condition.js';
export { createAgent } from './create-agent.js';
export { createTeam } from './create-team.js';
export { createWorkflow, renderTemplate } from './create-workflow.js';
export { DEFINITION_FORMAT_VERSION, type JsonValue } from './definition-parts.js';
export type { DefinitionRegistry, NamedReducer, WorkflowStateView } from './definition-registry.js';
export { type DefinitionProblem, InvalidDefinitionError } from './invalid-definition-error.js';
export { type TeamDefinition, teamDefinitionSchema } from './team-definition.js';
export { type WorkflowDefinition, workflowDefinitionSchema } from './workflow-definition.js';
