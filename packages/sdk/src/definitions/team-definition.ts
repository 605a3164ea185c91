import { z } from 'zod';
import { terminationSchema } from '../teams/termination.js';
import { formatVersionSchema, referenceSchema } from './definition-parts.js';

const memberNameSchema = z
  .string()
  .regex(
    /^(?!(?:user|orchestrator)$)[A-Za-z0-9_-]{1,64}$/,
    'letters, digits, _ and - only, 1 to 64 characters; "user" and "orchestrator" are reserved',
  );

const memberSchema = z
  .object({
    name: memberNameSchema,
    description: z.string().optional().describe('What the member does: shown to selectors, orchestrators and handoff tools.'),
    model: referenceSchema.describe('A model of the registry.'),
    instructions: z.string().min(1).describe("The member's system prompt."),
    privateContext: z.array(z.string()).optional().describe('Context only this member sees, beside the shared transcript.'),
  })
  .strict();

const handoffTopologySchema = z
  .object({
    kind: z.literal('handoff'),
    entry: memberNameSchema.describe('The member that owns the answer first.'),
    handoffs: z
      .record(z.string(), z.array(z.string().min(1)))
      .describe('For each member, the members (or "user") it may hand the final answer to (a transfer_to_<name> tool each).'),
    historyFilter: z
      .union([z.enum(['all', 'last-message', 'none']), z.object({ function: referenceSchema }).strict()])
      .optional()
      .describe('What the receiver sees of the history (default "all"); a function is a history filter of the registry.'),
    maxHandoffs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Handoffs per run; one more ends the team "handoff-limit" (default 5).'),
  })
  .strict();

const speakerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('round-robin') }).strict(),
  z
    .object({
      kind: z.literal('selector-model'),
      model: referenceSchema.describe('A model of the registry.'),
      instructions: z.string().optional(),
      maxAttempts: z.number().int().min(1).optional().describe('Answers tried before the typed failure (default 3).'),
    })
    .strict(),
  z.object({ kind: z.literal('function'), function: referenceSchema.describe('A speaker function of the registry.') }).strict(),
]);

const groupChatTopologySchema = z
  .object({
    kind: z.literal('group-chat'),
    speaker: speakerSchema.optional().describe('How the next speaker is chosen (default round-robin).'),
    allowRepeat: z.boolean().optional().describe('Whether the last speaker may speak again at once (default false).'),
  })
  .strict();

const orchestratorTopologySchema = z
  .object({
    kind: z.literal('orchestrator'),
    model: referenceSchema.describe("The orchestrator's model, of the registry."),
    instructions: z.string().optional(),
    maxStalls: z.number().int().min(1).optional().describe('Stalled turns (net) that trigger a re-plan (default 3).'),
    maxReplans: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Re-plans allowed; a stall after the last ends "replan-limit" (default 2).'),
    maxLedgerAttempts: z.number().int().min(1).optional().describe('Tries to get a valid progress ledger (default 3).'),
  })
  .strict();

const taskBoardTopologySchema = z
  .object({
    kind: z.literal('task-board'),
    tasks: z
      .array(
        z
          .object({
            id: z.string().regex(/^\w{1,64}$/, 'letters, digits and _ only, 1 to 64 characters'),
            description: z.string().min(1),
            dependsOn: z.array(z.string()).optional().describe('Tasks that must be done before this one can be claimed.'),
            assignee: memberNameSchema.optional().describe('The only member that may claim it.'),
            requiresApproval: z.boolean().optional().describe("Claiming it waits for the user's answer (never a member's)."),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

const reviewTopologySchema = z
  .object({
    kind: z.literal('review'),
    reviewers: z.array(memberNameSchema).min(1).describe('Members that find problems.'),
    verifier: memberNameSchema.describe('The member that verifies each problem on its own.'),
  })
  .strict();

const evaluatorOptimizerTopologySchema = z
  .object({
    kind: z.literal('evaluator-optimizer'),
    generator: memberNameSchema,
    evaluator: memberNameSchema,
    maxIterations: z.number().int().min(1).optional().describe('Drafts allowed (default 3).'),
  })
  .strict();

const voteTopologySchema = z
  .object({
    kind: z.literal('vote'),
    aggregate: z
      .union([
        z.literal('majority'),
        z.object({ threshold: z.number().int().min(1) }).strict(),
        z.object({ judge: referenceSchema.describe('A model of the registry.'), instructions: z.string().optional() }).strict(),
      ])
      .optional()
      .describe('majority (a tie goes to the answer cast first), a threshold of votes, or a judge model.'),
  })
  .strict();

/**
 * The published format of a team as data (N-12, version 1): its members (a model of the registry
 * and instructions each), its topology, its termination and its hard cap of turns.
 * `createTeam(definition, registry)` builds it.
 */
export const teamDefinitionSchema = z
  .object({
    $schema: z.string().optional(),
    formatVersion: formatVersionSchema,
    kind: z.literal('team'),
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'letters, digits, _, - and . only, 1 to 128 characters'),
    description: z.string().optional(),
    members: z.array(memberSchema).min(1),
    topology: z.discriminatedUnion('kind', [
      handoffTopologySchema,
      groupChatTopologySchema,
      orchestratorTopologySchema,
      taskBoardTopologySchema,
      reviewTopologySchema,
      evaluatorOptimizerTopologySchema,
      voteTopologySchema,
    ]),
    termination: terminationSchema.optional().describe('When to stop, checked at every turn boundary (and/or of conditions).'),
    maxTurns: z.number().int().min(1).optional().describe('Hard cap of member turns, always applied (default 50).'),
    leaseMs: z.number().int().min(50).optional(),
    timeoutMs: z.number().int().positive().optional().describe('Hard deadline of a run from its creation (default 1 hour).'),
  })
  .strict()
  .meta({ id: 'TeamDefinition', title: 'AgentLoom team definition' });

/** A team definition as written (defaults optional). */
export type TeamDefinition = z.input<typeof teamDefinitionSchema>;
