import { z } from 'zod';
import { contextOptionsSchema } from '../engine/agent/context-options.js';
import { executionOptionsSchema } from '../engine/agent/execution-options.js';
import { hookTriggers } from '../hooks/hook-types.js';
import { formatVersionSchema, jsonSchemaValueSchema, referenceSchema } from './definition-parts.js';

const references = z.array(referenceSchema);

/** An MCP server's tools a role may use: all of them, or the listed ones (by their MCP names). */
const mcpReferenceSchema = z
  .object({
    server: referenceSchema.describe('The MCP server, by the name the registry knows it under.'),
    tools: z.array(z.string().min(1)).optional().describe('Only these tools of the server; all of them when omitted.'),
  })
  .strict();

/** What a role may use, each by name: tools, skills and MCP servers (K-1, C-13). */
const capabilityShape = {
  tools: references.optional().describe('Tools, by name, from the registry.'),
  skills: references.optional().describe("Skills, by name, from the registry's skill catalogue."),
  mcp: z.array(mcpReferenceSchema).optional().describe('MCP servers (all or some of their tools).'),
};

/** A hook by name, optionally narrowed: its tool matcher, timeout and failure mode set here. */
const hookReferenceSchema = z.union([
  referenceSchema,
  z
    .object({
      hook: referenceSchema,
      matcher: z.array(z.string().min(1)).optional(),
      timeoutMs: z.number().int().positive().optional(),
      observe: z.boolean().optional(),
      failClosed: z.boolean().optional(),
    })
    .strict(),
]);

const hooksSchema = z
  .object(Object.fromEntries(hookTriggers.map((trigger) => [trigger, z.array(hookReferenceSchema).optional()])))
  .strict()
  .describe('Hooks by trigger point, each list in the order it runs (K-4, K-8).');

const permissionsSchema = z
  .object({
    rules: z
      .array(
        z
          .object({
            tool: z.string().min(1).describe('A tool name, or a pattern with * and ?.'),
            arguments: z
              .record(z.string(), z.string())
              .optional()
              .describe('Glob patterns the named arguments (as text) must match.'),
            decision: z.enum(['allow', 'ask', 'deny']),
            reason: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
    default: z.enum(['allow', 'ask', 'deny']).optional(),
  })
  .strict()
  .describe('Permission rules for tool calls and delegations (N-1).');

const modelSettingsSchema = z
  .object({
    thinking: z
      .object({ enabled: z.boolean(), effort: z.enum(['low', 'medium', 'high']).optional() })
      .strict()
      .optional(),
    maxOutputTokens: z.number().int().positive().optional(),
  })
  .strict();

const baseShape = {
  $schema: z.string().optional().describe('The JSON Schema this file follows (for editors); ignored.'),
  formatVersion: formatVersionSchema,
  kind: z.literal('agent'),
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'letters, digits, _, - and . only, 1 to 128 characters'),
  description: z.string().optional(),
  model: referenceSchema.describe('The model of every role, by name; executors and compression inherit it (C-14).'),
  fallbackModels: z
    .array(referenceSchema)
    .max(8)
    .optional()
    .describe('Models by name, tried in order when the model fails for good in a way another may not (N-15).'),
  modelSettings: modelSettingsSchema.optional(),
  variables: z
    .record(z.string(), z.string())
    .optional()
    .describe('Values of {{name}} placeholders in the prompts; a run may add or override them (C-12).'),
  inputSchema: jsonSchemaValueSchema.optional().describe("The run input's format, when it is structured data."),
  execution: executionOptionsSchema.optional().describe('Loop budget, timeouts, parallelism and retries (C-3…C-11).'),
  context: contextOptionsSchema
    .omit({ countTokens: true })
    .optional()
    .describe('History, compression and context window (C-1, C-2).'),
  permissions: permissionsSchema.optional(),
  hooks: hooksSchema.optional(),
  guardrails: z
    .object({ input: references.optional(), output: references.optional(), tool: references.optional() })
    .strict()
    .optional()
    .describe('Guardrails by name (N-2).'),
  memory: z
    .object({
      enabled: z.boolean().describe('Gives every role remember / recall / forget over the registry’s factStore.'),
      budgetCharacters: z.number().int().positive().optional().describe('Most characters one recall puts into the context.'),
      maximumFactCharacters: z.number().int().positive().optional().describe('Longest fact remember accepts.'),
    })
    .strict()
    .optional()
    .describe('Facts kept across sessions, per agent and per run metadata.userId (N-15); off by default.'),
  approvalTimeoutMs: z.number().int().positive().optional(),
  leaseMs: z.number().int().min(50).optional(),
  codeOrchestration: z
    .union([
      z.boolean(),
      z
        .object({
          maxToolCalls: z.number().int().positive().optional().describe('Most tool calls one script may make; default 50.'),
          maxOutputBytes: z
            .number()
            .int()
            .positive()
            .optional()
            .describe('Limit on what one script sends back (arguments, console output, result); default 1 MiB.'),
          maxMemoryMegabytes: z.number().int().min(16).optional().describe("Heap limit of the script's engine; default 64."),
        })
        .strict(),
    ])
    .optional()
    .describe(
      "Code-orchestrated tool calls (N-15): each role gets run_script, a JavaScript script calling the role's tools in the " +
        "registry's sandbox, each call journaled and governed like a direct one; only the script's result enters the context. Off by default.",
    ),
};

const reactDefinitionSchema = z
  .object({
    ...baseShape,
    mode: z.literal('react'),
    prompt: z.string().describe('The system prompt of the one role.'),
    ...capabilityShape,
    outputSchema: jsonSchemaValueSchema.optional().describe('The final answer must be JSON matching it (O-1).'),
  })
  .strict();

const plannerDefinitionSchema = z
  .object({
    prompt: z.string(),
    ...capabilityShape,
    outputSchema: jsonSchemaValueSchema.optional(),
  })
  .strict();

const executorDefinitionSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, 1 to 64 characters'),
    description: z.string().min(1).describe('When the planner should delegate to this role.'),
    prompt: z.string(),
    ...capabilityShape,
    inputSchema: jsonSchemaValueSchema.optional().describe('The task contract; default { task, constraints?, material? }.'),
    outputSchema: jsonSchemaValueSchema.optional().describe("The result contract of the executor's final answer."),
    background: z
      .boolean()
      .optional()
      .describe(
        'Run its tasks in the background (N-7): the planner goes on at once, the result arrives as a later input, a finished task can be resumed by id.',
      ),
  })
  .strict();

const planExecutorDefinitionSchema = z
  .object({
    ...baseShape,
    mode: z.literal('plan-executor'),
    planner: plannerDefinitionSchema,
    executors: z.array(executorDefinitionSchema).min(1, 'a Plan–Executor agent needs at least one executor role (L-2)'),
  })
  .strict();

/**
 * The fields of a definition that every mode shares; used to report their problems even when the
 * `mode` itself is wrong, so that one bad field never hides the others.
 */
export const agentDefinitionSharedSchema = z.object(baseShape);

/**
 * The published format of an agent as data (version 1): everything an agent's code configuration
 * holds except live objects, which it names instead (model, tools, skills, MCP servers, hooks,
 * guardrails) for a registry to resolve. `createAgent(definition, registry)` builds the agent.
 */
export const agentDefinitionSchema = z
  .discriminatedUnion('mode', [reactDefinitionSchema, planExecutorDefinitionSchema])
  .meta({ id: 'AgentDefinition', title: 'AgentLoom agent definition' });

/** An agent definition as written (JSON). */
export type AgentDefinition = z.input<typeof agentDefinitionSchema>;
/** A ReAct agent definition. */
export type ReactAgentDefinition = z.input<typeof reactDefinitionSchema>;
/** A Plan–Executor agent definition. */
export type PlanExecutorAgentDefinition = z.input<typeof planExecutorDefinitionSchema>;
/** What a role may use, by name. */
export type CapabilityReferences = { tools?: string[]; skills?: string[]; mcp?: z.input<typeof mcpReferenceSchema>[] };
/** A hook reference of a definition. */
export type HookReference = z.input<typeof hookReferenceSchema>;
