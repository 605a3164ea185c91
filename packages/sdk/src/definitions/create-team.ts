import { InvalidConfigurationError } from '../core/errors/index.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { Team } from '../teams/team.js';
import type { TeamMember } from '../teams/team-types.js';
import { evaluatorOptimizer } from '../teams/topologies/evaluator-optimizer.js';
import { type GroupChatOptions, groupChat } from '../teams/topologies/group-chat.js';
import { type HandoffOptions, handoff } from '../teams/topologies/handoff.js';
import { orchestrator } from '../teams/topologies/orchestrator.js';
import { review } from '../teams/topologies/review.js';
import { taskBoard } from '../teams/topologies/task-board.js';
import { vote } from '../teams/topologies/vote.js';
import type { Topology } from '../teams/topology.js';
import type { DefinitionRegistry } from './definition-registry.js';
import { type DefinitionProblem, InvalidDefinitionError, pathOf } from './invalid-definition-error.js';
import { type TeamDefinition, teamDefinitionSchema } from './team-definition.js';

type ParsedTeam = ReturnType<typeof teamDefinitionSchema.parse>;

/**
 * Builds a team (N-12) from its definition (data, e.g. parsed JSON) and a registry that resolves
 * the names it uses: members' and selectors' models, speaker functions, history filters. The team
 * keeps its runs in the registry's store (default: a new `MemoryRunStore`). Throws
 * `InvalidDefinitionError` listing every problem — format, unknown names, members a topology
 * names that do not exist — before anything runs.
 *
 * @example
 * const team = createTeam(JSON.parse(readFileSync('support-team.json', 'utf8')), { models: { default: model }, store });
 * const result = await team.run({ sessionId: 's1', input: 'I was charged twice' }).result();
 */
export function createTeam(definition: TeamDefinition | unknown, registry: DefinitionRegistry = {}): Team {
  const name = (definition as { name?: unknown } | null)?.name;
  const subject = typeof name === 'string' ? `team "${name}"` : 'team';
  const parsed = teamDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new InvalidDefinitionError(
      subject,
      parsed.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })),
    );
  }
  const data = parsed.data;
  const problems: DefinitionProblem[] = [];
  const model = (reference: string, path: string) => {
    const found = registry.models?.[reference];
    if (!found) problems.push({ path, message: `the registry has no model "${reference}"` });
    return found;
  };
  const members: TeamMember[] = data.members.map((member, index) => ({
    name: member.name,
    instructions: member.instructions,
    model: model(member.model, `members.${index}.model`) as TeamMember['model'],
    ...(member.description !== undefined ? { description: member.description } : {}),
    ...(member.privateContext ? { privateContext: member.privateContext } : {}),
  }));
  const topology = topologyOf(data.topology, registry, problems, model);
  if (problems.length > 0) throw new InvalidDefinitionError(subject, problems);
  try {
    return new Team({
      name: data.name,
      members,
      topology: topology as Topology,
      store: registry.store ?? new MemoryRunStore(),
      ...(data.termination ? { termination: data.termination } : {}),
      ...(data.maxTurns !== undefined ? { maxTurns: data.maxTurns } : {}),
      ...(data.leaseMs !== undefined ? { leaseMs: data.leaseMs } : {}),
      ...(data.timeoutMs !== undefined ? { timeoutMs: data.timeoutMs } : {}),
    });
  } catch (error) {
    // The team's own checks (a topology naming an unknown member …), reported as definition problems.
    if (InvalidConfigurationError.isInstance(error)) throw new InvalidDefinitionError(subject, error.issues);
    throw error;
  }
}

function topologyOf(
  topology: ParsedTeam['topology'],
  registry: DefinitionRegistry,
  problems: DefinitionProblem[],
  model: (reference: string, path: string) => TeamMember['model'] | undefined,
): Topology | undefined {
  switch (topology.kind) {
    case 'handoff': {
      const options: HandoffOptions = { entry: topology.entry, handoffs: topology.handoffs };
      if (topology.maxHandoffs !== undefined) options.maxHandoffs = topology.maxHandoffs;
      const filter = topology.historyFilter;
      if (typeof filter === 'string') options.historyFilter = filter;
      else if (filter) {
        const found = registry.historyFilters?.[filter.function];
        if (found) options.historyFilter = found;
        else
          problems.push({
            path: 'topology.historyFilter.function',
            message: `the registry has no history filter "${filter.function}"`,
          });
      }
      return handoff(options);
    }
    case 'group-chat': {
      const options: GroupChatOptions = {};
      if (topology.allowRepeat !== undefined) options.allowRepeat = topology.allowRepeat;
      const speaker = topology.speaker;
      if (speaker?.kind === 'selector-model') {
        const selector = model(speaker.model, 'topology.speaker.model');
        if (selector) {
          options.speaker = {
            model: selector,
            ...(speaker.instructions !== undefined ? { instructions: speaker.instructions } : {}),
            ...(speaker.maxAttempts !== undefined ? { maxAttempts: speaker.maxAttempts } : {}),
          };
        }
      } else if (speaker?.kind === 'function') {
        const found = registry.speakers?.[speaker.function];
        if (found) options.speaker = found;
        else
          problems.push({
            path: 'topology.speaker.function',
            message: `the registry has no speaker function "${speaker.function}"`,
          });
      }
      return groupChat(options);
    }
    case 'task-board':
      return taskBoard({ tasks: topology.tasks });
    case 'review':
      return review({ reviewers: topology.reviewers, verifier: topology.verifier });
    case 'evaluator-optimizer':
      return evaluatorOptimizer({
        generator: topology.generator,
        evaluator: topology.evaluator,
        ...(topology.maxIterations !== undefined ? { maxIterations: topology.maxIterations } : {}),
      });
    case 'vote': {
      const aggregate = topology.aggregate;
      if (aggregate === undefined || aggregate === 'majority' || 'threshold' in aggregate)
        return vote(aggregate ? { aggregate } : {});
      const judge = model(aggregate.judge, 'topology.aggregate.judge');
      if (!judge) return undefined;
      return vote({
        aggregate: { judge, ...(aggregate.instructions !== undefined ? { instructions: aggregate.instructions } : {}) },
      });
    }
    case 'orchestrator': {
      const lead = model(topology.model, 'topology.model');
      if (!lead) return undefined;
      return orchestrator({
        model: lead,
        ...(topology.instructions !== undefined ? { instructions: topology.instructions } : {}),
        ...(topology.maxStalls !== undefined ? { maxStalls: topology.maxStalls } : {}),
        ...(topology.maxReplans !== undefined ? { maxReplans: topology.maxReplans } : {}),
        ...(topology.maxLedgerAttempts !== undefined ? { maxLedgerAttempts: topology.maxLedgerAttempts } : {}),
      });
    }
  }
}
