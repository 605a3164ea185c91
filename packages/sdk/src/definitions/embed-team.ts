import type { AnyStateField, StateDefinition } from '../engine/workflow/channels/state-fields.js';
import type { WorkflowIssue } from '../engine/workflow/errors/workflow-errors.js';
import type { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import { FunctionNode } from '../engine/workflow/nodes/function-node.js';
import type {
  NodeExecution,
  NodeInvocation,
  NodeValidationContext,
  WorkflowNode,
} from '../engine/workflow/nodes/workflow-node.js';
import { TEAM_EVENTS_FIELD } from '../engine/workflow/team-events.js';
import type { Team } from '../teams/team.js';
import { teamStateDefinition } from '../teams/team-state.js';

/** The node that writes a team node's answer once the team has ended (the edges leaving the team start here). */
export function teamDoneNode(name: string): string {
  return `${name}.done`;
}

/** The node of a team node's member turns. */
export function teamTurnNode(name: string): string {
  return `${name}.turn`;
}

/** The host state field that holds field `field` of the team embedded as node `name`. */
export function teamField(name: string, field: string): string {
  return `${name}.${field}`;
}

/** The state fields a team node adds to its workflow: the team's fields, prefixed, and the shared `teamEvents`. */
export function embeddedTeamState(name: string): Record<string, AnyStateField> {
  const state: Record<string, AnyStateField> = {};
  for (const [field, spec] of Object.entries(teamStateDefinition())) {
    state[field === TEAM_EVENTS_FIELD ? field : teamField(name, field)] = spec as AnyStateField;
  }
  return state;
}

/** Every node name a team node takes in its workflow. */
export function teamNodeNames(name: string): string[] {
  return [name, teamTurnNode(name), teamDoneNode(name)];
}

/** How a team node is placed: its team, how its task is read from the state, where its answer goes. */
export interface EmbeddedTeam {
  name: string;
  team: Team;
  task: (state: Readonly<Record<string, unknown>>) => string;
  output?: string;
}

/**
 * Embeds a team (N-12) in a host workflow as three nodes: `<name>` (the team's select step: check
 * the termination, choose the speaker), `<name>.turn` (a member speaks) and `<name>.done` (writes
 * the answer to the output field). `<name>` goes to `<name>.turn` until the team has ended, then to
 * `<name>.done`; a bounded loop goes from `<name>.turn` back to `<name>` while the team has not
 * ended. Every step is one task of the host's journal, so a crash resumes the team mid-conversation
 * with no turn redone, and the team events it writes to `teamEvents` are the host run's events.
 * The edges leaving the team node are the caller's to start from `<name>.done`.
 */
export function embedTeam(builder: WorkflowBuilder<StateDefinition>, embedded: EmbeddedTeam): void {
  const { name, team, task, output } = embedded;
  const fields = teamStateDefinition() as unknown as StateDefinition;
  const ended = (state: Readonly<Record<string, unknown>>) => state[teamField(name, 'termination')] !== undefined;
  builder.addNode(name, new EmbeddedTeamStep(team.steps.select, name, fields, task));
  builder.addNode(teamTurnNode(name), new EmbeddedTeamStep(team.steps.turn, name, fields));
  builder.addNode(
    teamDoneNode(name),
    new FunctionNode(async (state) => {
      if (output === undefined) return {};
      return { [output]: (state[teamField(name, 'answer')] as string | undefined) ?? '' };
    }),
  );
  builder.addConditionalEdges(name, (state) => (ended(state) ? teamDoneNode(name) : teamTurnNode(name)), [
    teamTurnNode(name),
    teamDoneNode(name),
  ]);
  builder.addLoop({
    from: teamTurnNode(name),
    to: name,
    exit: teamDoneNode(name),
    while: (state) => !ended(state),
    maxIterations: team.maxTurns + 1,
  });
}

/** Supersteps a team node may take: a select and a turn per member turn, the last select and the answer. */
export function teamNodeSteps(team: Team): number {
  return 2 * team.maxTurns + 4;
}

/**
 * A team step run inside a host workflow: it sees the team's fields under their own names (read
 * from the host's prefixed fields) and its writes go back to the prefixed fields, except the team
 * events, which go to the host's one `teamEvents` field (projected to typed events). The select
 * step of a team not started yet also takes its task from the host state.
 */
class EmbeddedTeamStep implements WorkflowNode {
  readonly kind = 'function' as const;

  constructor(
    private readonly inner: WorkflowNode,
    private readonly name: string,
    private readonly fields: StateDefinition,
    private readonly taskOf?: (state: Readonly<Record<string, unknown>>) => string,
  ) {}

  async execute(invocation: NodeInvocation): Promise<NodeExecution> {
    const view: Record<string, unknown> = {};
    for (const field of Object.keys(this.fields))
      view[field] = field === TEAM_EVENTS_FIELD ? [] : invocation.state[teamField(this.name, field)];
    const seeded = this.taskOf && view.task === undefined ? this.taskOf(invocation.state) : undefined;
    if (seeded !== undefined) view.task = seeded;
    const execution = await this.inner.execute({ ...invocation, state: view, fields: this.fields });
    const update: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(execution.update))
      update[field === TEAM_EVENTS_FIELD ? field : teamField(this.name, field)] = value;
    if (seeded !== undefined) update[teamField(this.name, 'task')] = seeded;
    return { ...execution, update };
  }

  validate(_context: NodeValidationContext): WorkflowIssue[] {
    return [];
  }

  describe(): string {
    return `team-step:${this.inner.describe()}`;
  }
}
