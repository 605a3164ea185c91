import { z } from 'zod';
import { agentDefinitionSchema } from './agent-definition.js';
import { teamDefinitionSchema } from './team-definition.js';
import { workflowDefinitionSchema } from './workflow-definition.js';

/**
 * The JSON Schema files of the definition format, by file name, as committed in
 * `packages/sdk/schemas/` (`npm run schemas` writes them; a test checks they are up to date).
 * They describe the input form: defaults are optional, and checks that JSON Schema cannot say
 * (a JSON Schema that must compile, one operator per comparison) are made by `createAgent`,
 * `createWorkflow` and `createTeam`.
 */
export function renderDefinitionSchemas(): Record<string, string> {
  const render = (schema: z.ZodType) =>
    `${JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }), null, 2)}\n`;
  return {
    'agent-definition.schema.json': render(agentDefinitionSchema),
    'workflow-definition.schema.json': render(workflowDefinitionSchema),
    'team-definition.schema.json': render(teamDefinitionSchema),
  };
}
