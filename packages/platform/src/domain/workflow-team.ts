import { teamDefinitionSchema } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';
import type { DraftIssue } from './validate-agent-draft.js';

const memberName = z
  .string()
  .regex(
    /^(?!(?:user|orchestrator)$)[A-Za-z0-9_-]{1,64}$/,
    'letters, digits, _ and - only; "user" and "orchestrator" are reserved',
  );

/**
 * A team a workflow's team node runs (N-12, issue 31): its topology and termination as the SDK's
 * `TeamDefinition` writes them, its members published agent apps of the workflow's space. A
 * member speaks with its agent release's model and entry prompt; a model a topology names (an
 * orchestrator's, a selector's, a judge's) is a member's name: that member's model.
 */
export const teamBindingSchema = z
  .strictObject({
    topology: z.record(z.string(), z.unknown()).openapi({
      description:
        'The SDK team topology (`TeamDefinition.topology`: handoff, group-chat, orchestrator, review, evaluator-optimizer, vote, task-board); a model it names is a member name.',
      example: { kind: 'group-chat' },
    }),
    members: z
      .array(
        z.strictObject({
          name: memberName.openapi({ description: 'The member name the topology and the other members use.' }),
          appId: z.string().min(1).max(100).openapi({ description: 'A published agent app of this space.' }),
          description: z.string().max(2000).optional(),
        }),
      )
      .min(1)
      .max(20),
    maxTurns: z.number().int().min(1).max(200).optional().openapi({ description: 'Hard cap of member turns (default 50).' }),
    termination: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'The SDK termination condition (and/or of max-turns, text-mention, token-budget …).' }),
    budget: z
      .strictObject({
        maxTokens: z.number().int().positive().optional().openapi({ description: 'Tokens of all members together.' }),
        timeoutMs: z.number().int().positive().optional().openapi({ description: 'From the team’s first turn.' }),
      })
      .optional()
      .openapi({ description: 'The budget the members share; reaching it ends the team (`token-budget`, `timeout`).' }),
  })
  .openapi('WorkflowTeamBinding');

/** A parsed team binding of a workflow draft. */
export type TeamBinding = z.output<typeof teamBindingSchema>;

/** A team of a workflow release: its binding with each member pinned to one agent release (P-6.9). */
export interface PinnedTeam extends Omit<TeamBinding, 'members'> {
  members: readonly { name: string; appId: string; releaseId: string; version: number; description?: string }[];
}

/**
 * The SDK `TeamDefinition` of a team binding: each member's model is the registry model of its
 * own name, its instructions what `instructionsOf` gives (the agent release's prompt), the budget
 * OR-ed into the termination.
 */
export function teamDefinitionOf(
  name: string,
  team: Pick<TeamBinding, 'topology' | 'maxTurns' | 'termination' | 'budget'> & {
    members: readonly { name: string; description?: string }[];
  },
  instructionsOf: (member: string) => string,
): Record<string, unknown> {
  const budget: Record<string, unknown>[] = [];
  if (team.budget?.maxTokens !== undefined) budget.push({ kind: 'token-budget', totalTokens: team.budget.maxTokens });
  if (team.budget?.timeoutMs !== undefined) budget.push({ kind: 'timeout', ms: team.budget.timeoutMs });
  const conditions = [...(team.termination ? [team.termination] : []), ...budget];
  return {
    formatVersion: 1,
    kind: 'team',
    name,
    members: team.members.map((member) => ({
      name: member.name,
      model: member.name,
      instructions: instructionsOf(member.name),
      ...(member.description !== undefined ? { description: member.description } : {}),
    })),
    topology: team.topology,
    ...(conditions.length === 1 ? { termination: conditions[0] } : {}),
    ...(conditions.length > 1 ? { termination: { kind: 'or', any: conditions } } : {}),
    ...(team.maxTurns !== undefined ? { maxTurns: team.maxTurns } : {}),
  };
}

/**
 * The problems of a draft's team bindings that need no lookup: the team as an SDK definition
 * (topology, termination, member names), paths under `bindings.teams.<name>.`. The member apps
 * are checked like agent bindings by the caller; names the platform cannot resolve (a speaker
 * function, a history filter function) are refused when the publish builds the workflow.
 */
export function validateTeamBinding(name: string, team: TeamBinding): DraftIssue[] {
  const parsed = teamDefinitionSchema.safeParse(teamDefinitionOf(name.replace(/[^A-Za-z0-9_.-]/g, '_'), team, () => '-'));
  if (parsed.success) return [];
  return parsed.error.issues.map((problem) => {
    const [head, ...rest] = problem.path.map(String);
    // The budget is folded into the termination; its problems are the termination's.
    const path = head === 'members' ? ['members', rest[0] ?? ''] : [head ?? '', ...rest];
    return { path: ['bindings', 'teams', name, ...path].join('.'), code: problem.code, message: problem.message };
  });
}
