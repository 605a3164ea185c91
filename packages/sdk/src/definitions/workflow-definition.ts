import { z } from 'zod';
import { agentDefinitionSchema } from './agent-definition.js';
import { conditionSchema } from './condition.js';
import { formatVersionSchema, jsonSchemaValueSchema, jsonValueSchema, referenceSchema } from './definition-parts.js';

/** A node name: not a reserved word, no characters the engine uses in channel and task ids. */
const nodeNameSchema = z
  .string()
  .regex(/^(?!__)[^:/#+]{1,128}$/, 'at most 128 characters, not starting with "__", without ":", "/", "#" or "+"')
  .refine((name) => name !== 'START' && name !== 'END', 'START and END are the virtual entry and exit');
/** Where an edge, route or loop may go or come from: a node, or START / END. */
const endpointSchema = z.string().min(1).describe('A node name, or START / END.');
const fieldNameSchema = z.string().min(1).describe('A state field.');

const stateFieldSchema = z
  .object({
    reducer: z
      .enum(['last-value', 'append', 'merge'])
      .describe('last-value keeps the last write; append adds items in planned order; merge applies a named merge.'),
    schema: jsonSchemaValueSchema.describe('The JSON Schema of the value (of one item, for append).'),
    default: jsonValueSchema.optional().describe('The value before any write (last-value and merge).'),
    merge: referenceSchema
      .optional()
      .describe('For reducer "merge": "object" (shallow merge of objects) or a reducer from the registry.'),
  })
  .strict();

const artifactsSchema = z
  .object({
    reads: z.array(z.string().min(1)).optional().describe('Artifacts (files, state fields…) the node reads.'),
    writes: z.array(z.string().min(1)).optional().describe('Artifacts the node writes.'),
  })
  .strict()
  .describe(
    'Read and write sets (seed 004 Q1): a writer never runs beside a task of its superstep that reads or writes the same artifact.',
  );

const agentNodeSchema = z
  .object({
    name: nodeNameSchema,
    kind: z.literal('agent'),
    agent: referenceSchema.describe("An agent of the definition's `agents`, or of the registry."),
    input: z
      .union([
        fieldNameSchema,
        z.object({ template: z.string().describe('Text with {{field}} placeholders.') }).strict(),
        z.object({ function: referenceSchema.describe('An input function of the registry.') }).strict(),
      ])
      .optional()
      .describe("The agent's question: a field, a template over the state, or a named function."),
    output: fieldNameSchema.optional().describe("Where the agent's final answer goes."),
    sessionId: z.string().min(1).optional().describe('The session of the inner runs; default, one per invocation.'),
    artifacts: artifactsSchema.optional(),
  })
  .strict();

const capabilityNodeSchema = z
  .object({
    name: nodeNameSchema,
    kind: z.literal('capability'),
    tool: referenceSchema.describe('A tool of the registry, or of the MCP server named by `server`.'),
    server: referenceSchema.optional().describe('The MCP server the tool belongs to.'),
    input: z
      .record(z.string(), z.union([fieldNameSchema, z.object({ value: jsonValueSchema }).strict()]))
      .optional()
      .describe('Each tool argument from a state field or a constant { "value": … }.'),
    output: fieldNameSchema.optional().describe("Where the tool's result goes."),
    resultSchema: jsonSchemaValueSchema.optional().describe("The JSON Schema of the tool's result."),
    timeoutMs: z.number().int().positive().optional(),
    retry: z
      .object({
        attempts: z.number().int().min(1).max(100).describe('Attempts in all, the first included; 1 means no retry.'),
        waitMs: z.number().int().min(0).optional().describe('Wait before the second attempt (default 1000).'),
        backoff: z.enum(['fixed', 'exponential']).optional(),
        maxWaitMs: z.number().int().min(0).optional(),
        retryOn: z
          .array(z.string().min(1))
          .optional()
          .describe(
            'The failure kinds retried (e.g. "timeout", "connection", "unknown-outcome" for a call cut by a crash); default: the transient ones.',
          ),
      })
      .strict()
      .optional()
      .describe("The node's retry policy (C-7 … C-9, X-5, X-7); default: none."),
    artifacts: artifactsSchema.optional(),
  })
  .strict();

const inputNodeSchema = z
  .object({
    name: nodeNameSchema,
    kind: z.literal('input'),
    question: z.string().min(1).describe('What a person is asked; {{field}} placeholders are filled from the state.'),
    schema: jsonSchemaValueSchema.optional().describe('The JSON Schema an answer must match.'),
    choices: z.array(jsonValueSchema).min(1).optional().describe('The answers offered; an answer must be one of them.'),
    output: fieldNameSchema.optional().describe('Where the answer goes.'),
    timeout: z
      .object({
        afterMs: z.number().int().positive().describe('How long the run waits for an answer.'),
        outcome: jsonValueSchema.describe('The answer recorded when nobody answered in time.'),
      })
      .strict()
      .optional()
      .describe('Without one, the run waits until it is answered, stopped or past its own deadline.'),
  })
  .strict()
  .describe('Asks a person and waits, durably, for exactly one answer (issue 36).');

const teamNodeSchema = z
  .object({
    name: nodeNameSchema,
    kind: z.literal('team'),
    team: referenceSchema.describe('A team of the registry (N-12).'),
    input: z
      .union([fieldNameSchema, z.object({ template: z.string().describe('Text with {{field}} placeholders.') }).strict()])
      .describe("The team's task: a field, or a template over the state."),
    output: fieldNameSchema.optional().describe("Where the team's final answer (the owner's answer) goes."),
  })
  .strict()
  .describe(
    'A team embedded in the workflow: its select and turn steps run as nodes "<name>" and "<name>.turn", then "<name>.done" writes the answer; its state lives in fields "<name>.<field>", its events in "teamEvents".',
  );

const targetsSchema = z.union([endpointSchema, z.array(endpointSchema).min(1)]);

const declarativeRouteSchema = z
  .object({
    from: endpointSchema,
    when: z
      .array(z.object({ if: conditionSchema, to: targetsSchema }).strict())
      .min(1)
      .describe('Tried in order: the first condition that holds picks its targets.'),
    otherwise: targetsSchema.describe('The targets when no condition holds.'),
  })
  .strict();

const namedRouteSchema = z
  .object({
    from: endpointSchema,
    function: referenceSchema.describe('A route function of the registry.'),
    targets: z.array(endpointSchema).min(1).describe('Every target the function may pick (W-3).'),
  })
  .strict();

const fanOutSchema = z.union([
  z
    .object({
      from: endpointSchema,
      to: endpointSchema.describe('The node that runs once per item.'),
      forEach: fieldNameSchema.describe('A list field: each item is one task of `to`, with the item as its input.'),
    })
    .strict(),
  z
    .object({
      from: endpointSchema,
      function: referenceSchema.describe('A fan-out function of the registry.'),
      targets: z.array(endpointSchema).min(1),
    })
    .strict(),
]);

const loopSchema = z
  .object({
    from: endpointSchema.describe('The last node of the body.'),
    to: endpointSchema.describe('The first node of the body.'),
    exit: endpointSchema.describe('Where the run goes when the condition fails or the bound is reached.'),
    while: z.union([conditionSchema, z.object({ function: referenceSchema }).strict()]),
    maxIterations: z.number().int().min(1),
  })
  .strict();

/**
 * The published format of a workflow as data (version 1): state fields with JSON Schemas and
 * reducers, agent, capability and input nodes with their I/O bindings, edges and joins, routes (a
 * declarative condition language or named functions), fan-outs, bounded loops and the run policy.
 * Agents are defined inline (`agents`) or taken from the registry. `createWorkflow(definition,
 * registry)` builds the workflow.
 */
export const workflowDefinitionSchema = z
  .object({
    $schema: z.string().optional(),
    formatVersion: formatVersionSchema,
    kind: z.literal('workflow'),
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'letters, digits, _, - and . only, 1 to 128 characters'),
    description: z.string().optional(),
    state: z.record(fieldNameSchema, stateFieldSchema).describe('The shared state (W-2): business data only.'),
    agents: z.record(z.string(), agentDefinitionSchema).optional().describe('Agents defined inline, by name.'),
    nodes: z.array(z.discriminatedUnion('kind', [agentNodeSchema, capabilityNodeSchema, inputNodeSchema, teamNodeSchema])).min(1),
    edges: z
      .array(
        z
          .object({
            from: z.union([endpointSchema, z.array(endpointSchema).min(1)]).describe('Several sources make a join.'),
            to: endpointSchema,
          })
          .strict(),
      )
      .default([]),
    routes: z.array(z.union([declarativeRouteSchema, namedRouteSchema])).optional(),
    fanOuts: z.array(fanOutSchema).optional(),
    loops: z.array(loopSchema).optional(),
    policy: z
      .object({
        durability: z.enum(['sync', 'async', 'exit']).optional(),
        maxSteps: z.number().int().min(1).optional(),
        timeoutMs: z.number().int().positive().optional(),
        maxLoops: z.number().int().min(1).optional(),
        maxConcurrency: z.number().int().min(1).optional(),
        leaseMs: z.number().int().min(50).optional(),
      })
      .strict()
      .optional()
      .describe('The run policy (W-6, N-10).'),
    output: z.array(fieldNameSchema).optional().describe('The state fields a successful run returns; default all.'),
  })
  .strict()
  .meta({ id: 'WorkflowDefinition', title: 'AgentLoom workflow definition' });

/** A workflow definition as written (JSON). */
export type WorkflowDefinition = z.input<typeof workflowDefinitionSchema>;
/** A workflow definition after parsing. */
export type ParsedWorkflowDefinition = z.output<typeof workflowDefinitionSchema>;
