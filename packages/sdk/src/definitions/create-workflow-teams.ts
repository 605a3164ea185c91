import type { AnyStateField, StateDefinition } from '../engine/workflow/channels/state-fields.js';
import type { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import type { DefinitionRegistry, WorkflowStateView } from './definition-registry.js';
import { embeddedTeamState, embedTeam, teamDoneNode, teamNodeNames, teamNodeSteps } from './embed-team.js';
import type { DefinitionProblem } from './invalid-definition-error.js';
import type { ParsedWorkflowDefinition } from './workflow-definition.js';

type TeamNodeDefinition = Extract<ParsedWorkflowDefinition['nodes'][number], { kind: 'team' }>;

function teamNodes(data: ParsedWorkflowDefinition): TeamNodeDefinition[] {
  return data.nodes.filter((node): node is TeamNodeDefinition => node.kind === 'team');
}

/**
 * Adds the state of every team node (its team's fields under `<name>.`, and `teamEvents`) to the
 * workflow's state. A field the definition declares itself under one of those names, or a node
 * named like one of the team node's own nodes, is a problem of the definition.
 */
export function addTeamStates(
  state: Record<string, AnyStateField>,
  data: ParsedWorkflowDefinition,
  problems: DefinitionProblem[],
): void {
  const declared = new Set(Object.keys(data.state));
  const nodeNames = new Set(data.nodes.map((node) => node.name));
  for (const [index, node] of data.nodes.entries()) {
    if (node.kind !== 'team') continue;
    for (const [field, spec] of Object.entries(embeddedTeamState(node.name))) {
      if (declared.has(field))
        problems.push({ path: `state.${field}`, message: `"${field}" is a field of the team node "${node.name}"` });
      state[field] = spec;
    }
    for (const taken of teamNodeNames(node.name).slice(1)) {
      if (nodeNames.has(taken))
        problems.push({
          path: `nodes.${index}.name`,
          message: `the team node "${node.name}" also takes the node name "${taken}"`,
        });
    }
  }
}

/** Places one team node of the definition (its team from the registry) in the builder. */
export function addTeamNode(
  builder: WorkflowBuilder<StateDefinition>,
  node: TeamNodeDefinition,
  path: string,
  registry: DefinitionRegistry,
  task: (state: WorkflowStateView) => string,
  fieldExists: (path: string) => boolean,
  problems: DefinitionProblem[],
): void {
  const team = registry.teams?.[node.team];
  if (!team) problems.push({ path: `${path}.team`, message: `no team "${node.team}" in the registry` });
  if (node.output !== undefined && !fieldExists(node.output))
    problems.push({ path: `${path}.output`, message: `"${node.output}" names no state field` });
  if (!team) return;
  embedTeam(builder, { name: node.name, team, task, ...(node.output !== undefined ? { output: node.output } : {}) });
}

/**
 * Maps where an edge, route, fan-out or loop starts: a team node's successors follow its
 * `<name>.done` node (the team has ended); START, END and other nodes as `endpoint` maps them.
 */
export function teamExitOf(data: ParsedWorkflowDefinition, endpoint: (name: string) => string): (name: string) => string {
  const names = new Set(teamNodes(data).map((node) => node.name));
  return (name) => (names.has(name) ? teamDoneNode(name) : endpoint(name));
}

/** The supersteps the team nodes may take beyond the workflow's own (0 without team nodes). */
export function teamStepsOf(data: ParsedWorkflowDefinition, registry: DefinitionRegistry): number {
  let steps = 0;
  for (const node of teamNodes(data)) {
    const team = registry.teams?.[node.team];
    if (team) steps += teamNodeSteps(team);
  }
  return steps;
}
