/**
 * The team node of a workflow draft (N-12, issue 31) as the canvas edits it: a node
 * `{ kind: 'team', team, input, output }` and its binding in `bindings.teams` (topology, members =
 * published agent apps of the space, max turns, budget). The canvas picks a topology kind and the
 * members; the topology's own fields are filled from the members in the order they were picked
 * (the first is the handoff entry, the orchestrator's model, the generator), so every kind is
 * valid as soon as it has enough members.
 */
import type { DefinitionNode, TeamBinding, WorkflowDraft } from './draft-model.js';

/** The binding name of a team node's team: its node name made a binding name. */
export function teamBindingNameOf(node: string): string {
  return node.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 128) || 'team';
}

/** The SDK's topology kinds, in the order the console offers them. */
export const topologyKinds = [
  'handoff',
  'group-chat',
  'orchestrator',
  'review',
  'evaluator-optimizer',
  'vote',
  'task-board',
] as const;
export type TopologyKind = (typeof topologyKinds)[number];

/** A team member name from an app name (letters, digits, `_` and `-`; never `user` or `orchestrator`). */
export function memberNameOf(appName: string): string {
  const name = appName.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 64) || 'member';
  return name === 'user' || name === 'orchestrator' ? `${name}-member` : name;
}

/** The topology of `kind` for these members (in order), keeping the task board's tasks. */
export function topologyFor(kind: TopologyKind, members: readonly string[], tasks: readonly string[] = []) {
  const first = members[0] ?? '';
  const last = members.at(-1) ?? first;
  switch (kind) {
    case 'handoff':
      return {
        kind,
        entry: first,
        handoffs: Object.fromEntries(members.map((member) => [member, members.filter((other) => other !== member)])),
      };
    case 'orchestrator':
      return { kind, model: first };
    case 'review':
      return { kind, reviewers: members.length > 1 ? members.slice(0, -1) : [first], verifier: last };
    case 'evaluator-optimizer':
      return { kind, generator: first, evaluator: members[1] ?? first };
    case 'task-board':
      return {
        kind,
        tasks: (tasks.length > 0 ? tasks : ['Answer the request']).map((description, index) => ({
          id: `task_${index + 1}`,
          description,
        })),
      };
    default:
      return { kind };
  }
}

/** The task board's task descriptions of a topology (none for other kinds). */
export function tasksOf(topology: Record<string, unknown>): string[] {
  const tasks = Array.isArray(topology.tasks) ? topology.tasks : [];
  return tasks.flatMap((task) =>
    typeof task === 'object' && task !== null && typeof (task as { description?: unknown }).description === 'string'
      ? [(task as { description: string }).description]
      : [],
  );
}

/** The topology kind of a binding (group chat when it names none the console knows). */
export function kindOf(team: TeamBinding | undefined): TopologyKind {
  const kind = team?.topology.kind;
  return topologyKinds.includes(kind as TopologyKind) ? (kind as TopologyKind) : 'group-chat';
}

/** The team binding a node uses, if bound. */
export function teamOf(draft: WorkflowDraft, node: DefinitionNode): TeamBinding | undefined {
  return node.team ? draft.bindings.teams?.[node.team] : undefined;
}

/** Replaces the binding named `name` (adding it if missing). */
export function withTeam(draft: WorkflowDraft, name: string, team: TeamBinding): WorkflowDraft {
  return { ...draft, bindings: { ...draft.bindings, teams: { ...(draft.bindings.teams ?? {}), [name]: team } } };
}

/** A new team binding of `kind` with these members. */
export function newTeam(kind: TopologyKind, members: TeamBinding['members'] = []): TeamBinding {
  return {
    topology: topologyFor(
      kind,
      members.map((member) => member.name),
    ),
    members,
    maxTurns: 10,
  };
}

/**
 * The draft of the console's team template: `question` → a handoff team of the given agent apps
 * (the first answers or hands over) → `answer`. Without apps the team has no members yet, and
 * the editor shows what to bind.
 */
export function teamTemplateDraft(apps: readonly { id: string; name: string }[]): Record<string, unknown> {
  const members = apps.slice(0, 2).map((app) => ({ name: memberNameOf(app.name), appId: app.id }));
  return {
    definition: {
      formatVersion: 1,
      kind: 'workflow',
      name: 'support-team',
      state: {
        question: { reducer: 'last-value', schema: { type: 'string' } },
        answer: { reducer: 'last-value', schema: { type: 'string' } },
      },
      nodes: [{ name: 'support', kind: 'team', team: 'support', input: 'question', output: 'answer' }],
      edges: [
        { from: 'START', to: 'support' },
        { from: 'support', to: 'END' },
      ],
      output: ['answer'],
    },
    bindings: { agents: {}, tools: {}, mcpServers: {}, teams: { support: newTeam('handoff', members) } },
    layout: { nodes: { START: { x: 40, y: 40 }, support: { x: 280, y: 40 }, END: { x: 520, y: 40 } } },
  };
}
