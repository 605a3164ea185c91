import { conditionText } from './condition-text.js';

/**
 * The workflow draft as the canvas edits it (the platform's `WorkflowDraft`): the SDK workflow
 * definition, the bindings of its agent and tool names, and the canvas layout. The definition is
 * read loosely — a draft may be half-built — and written back field by field, so whatever the
 * canvas does not edit (routes, loops, policy…) survives a save untouched.
 */
export interface WorkflowDraft {
  definition: Record<string, unknown>;
  bindings: {
    agents: Record<string, { appId: string }>;
    tools: Record<string, { resourceId: string }>;
    mcpServers: Record<string, { resourceId: string }>;
    /** Team names → a team: topology, members (published agent apps), termination, budget (N-12). */
    teams?: Record<string, TeamBinding>;
  };
  layout: { nodes: Record<string, { x: number; y: number }> };
}

/** A team a team node runs (the platform's `WorkflowTeamBinding`). */
export interface TeamBinding {
  topology: Record<string, unknown>;
  members: { name: string; appId: string; description?: string }[];
  maxTurns?: number;
  termination?: Record<string, unknown>;
  budget?: { maxTokens?: number; timeoutMs?: number };
}

/** One node of the definition, as far as the canvas reads it. */
export interface DefinitionNode {
  name: string;
  /** `input`: asks a person (issue 36); written in the JSON view, shown on the canvas. */
  kind: 'agent' | 'capability' | 'input' | 'team';
  agent?: string;
  team?: string;
  tool?: string;
  server?: string;
  input?: unknown;
  output?: string;
  [field: string]: unknown;
}

/** A plain edge or a join (`from` a list). */
export interface DefinitionEdge {
  from: string | string[];
  to: string;
}

/** One state field of the definition. */
export interface StateField {
  reducer: 'last-value' | 'append' | 'merge';
  schema: Record<string, unknown>;
  [field: string]: unknown;
}

/** A problem of the draft as the platform reports it (`config.`-prefixed on a refused save). */
export interface DraftIssue {
  path: string;
  message: string;
  code?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fills in what a stored draft may leave out. */
export function normaliseWorkflowDraft(config: Record<string, unknown>): WorkflowDraft {
  const bindings = isRecord(config.bindings) ? config.bindings : {};
  const layout = isRecord(config.layout) ? config.layout : {};
  return {
    definition: isRecord(config.definition)
      ? config.definition
      : { formatVersion: 1, kind: 'workflow', name: 'workflow', state: {}, nodes: [], edges: [] },
    bindings: {
      agents: (isRecord(bindings.agents) ? bindings.agents : {}) as WorkflowDraft['bindings']['agents'],
      tools: (isRecord(bindings.tools) ? bindings.tools : {}) as WorkflowDraft['bindings']['tools'],
      mcpServers: (isRecord(bindings.mcpServers) ? bindings.mcpServers : {}) as WorkflowDraft['bindings']['mcpServers'],
      ...(isRecord(bindings.teams) ? { teams: bindings.teams as Record<string, TeamBinding> } : {}),
    },
    layout: { nodes: (isRecord(layout.nodes) ? layout.nodes : {}) as WorkflowDraft['layout']['nodes'] },
  };
}

/**
 * The name a workflow binds an MCP server resource under (`bindings.mcpServers`, a node's
 * `server`): the resource's name made a binding name, lower-cased — the same resource always
 * gets the same name, so picking it on another node shares the binding.
 */
export function mcpBindingNameOf(resource: { name: string }): string {
  return (resource.name.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 128) || 'unnamed').toLowerCase();
}

/** The definition's nodes (those with a name and a kind). */
export function nodesOf(definition: Record<string, unknown>): DefinitionNode[] {
  const nodes = Array.isArray(definition.nodes) ? definition.nodes : [];
  return nodes.filter((node): node is DefinitionNode => isRecord(node) && typeof node.name === 'string');
}

/** The definition's plain edges and joins. */
export function edgesOf(definition: Record<string, unknown>): DefinitionEdge[] {
  const edges = Array.isArray(definition.edges) ? definition.edges : [];
  return edges.filter((edge): edge is DefinitionEdge => isRecord(edge) && typeof edge.to === 'string');
}

/** A conditional edge as the canvas draws it: one arrow per target, labelled with its condition. */
export interface ConditionalArrow {
  id: string;
  from: string;
  to: string;
  label: string;
  /** The definition path the arrow comes from (`routes.0`, `loops.1`). */
  path: string;
}

/**
 * The routes' and loops' arrows, each labelled with its condition: a route's branch
 * `route-R-wB-TARGET`, its otherwise `route-R-otherwise-TARGET`, a named route's target
 * `route-R-fn-TARGET`; a loop's way back `loop-L-back` and its exit `loop-L-exit`.
 */
export function conditionalArrows(definition: Record<string, unknown>): ConditionalArrow[] {
  const arrows: ConditionalArrow[] = [];
  const targets = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
  const routes = Array.isArray(definition.routes) ? definition.routes : [];
  routes.forEach((route, index) => {
    if (!isRecord(route) || typeof route.from !== 'string') return;
    const from = route.from;
    const add = (part: string, to: string, label: string) =>
      arrows.push({ id: `route-${index}-${part}-${to}`, from, to, label, path: `routes.${index}` });
    if (Array.isArray(route.when))
      route.when.forEach((branch, branchIndex) => {
        if (isRecord(branch))
          for (const to of targets(branch.to)) add(`w${branchIndex}`, to, `${branchIndex + 1}: ${conditionText(branch.if)}`);
      });
    for (const to of targets(route.otherwise)) add('otherwise', to, 'otherwise');
    for (const to of targets(route.targets)) add('fn', to, String(route.function ?? 'route'));
  });
  const loops = Array.isArray(definition.loops) ? definition.loops : [];
  loops.forEach((loop, index) => {
    if (!isRecord(loop) || typeof loop.from !== 'string') return;
    const path = `loops.${index}`;
    if (typeof loop.to === 'string')
      arrows.push({
        id: `loop-${index}-back`,
        from: loop.from,
        to: loop.to,
        label: `↺ ≤ ${String(loop.maxIterations)}: ${conditionText(loop.while)}`,
        path,
      });
    if (typeof loop.exit === 'string')
      arrows.push({ id: `loop-${index}-exit`, from: loop.from, to: loop.exit, label: 'loop exit', path });
  });
  return arrows;
}

/** The flow edge ids of one definition edge (a join is drawn as one arrow per source). */
export function edgeArrowIds(edge: DefinitionEdge, index: number): { id: string; from: string }[] {
  const sources = typeof edge.from === 'string' ? [edge.from] : edge.from;
  return sources.map((from) => ({ id: `edge-${index}-${from}`, from }));
}

/** The definition edge index a flow edge id names, when it names one. */
export function edgeIndexOf(flowEdgeId: string): number | undefined {
  const match = /^edge-(\d+)-/.exec(flowEdgeId);
  return match ? Number(match[1]) : undefined;
}

/** Issues by what they concern on the canvas: a node (by name), an arrow (by flow edge id), or the draft as a whole. */
export interface PlacedIssues {
  byNode: Map<string, string[]>;
  byArrow: Map<string, string[]>;
}

/**
 * Places each issue on what it concerns: `definition.nodes.N…` on node N; `definition.edges.N…`
 * on every arrow of edge N; `definition.routes.N` / `loops.N` on their arrows; a binding
 * (`bindings.agents.NAME…`, `bindings.tools.NAME…`) on every node that uses the name. Every issue
 * is also listed above the canvas, placed or not, so none is lost.
 */
export function placeIssues(draft: WorkflowDraft, issues: readonly DraftIssue[]): PlacedIssues {
  const byNode = new Map<string, string[]>();
  const byArrow = new Map<string, string[]>();
  const push = (map: Map<string, string[]>, key: string, message: string) => map.set(key, [...(map.get(key) ?? []), message]);
  const nodes = nodesOf(draft.definition);
  const rawNodes = Array.isArray(draft.definition.nodes) ? draft.definition.nodes : [];
  const rawEdges = Array.isArray(draft.definition.edges) ? draft.definition.edges : [];
  const arrows = conditionalArrows(draft.definition);
  for (const issue of issues) {
    const path = issue.path.replace(/^config\./, '');
    const parts = path.split('.');
    if (parts[0] === 'definition' && parts[1] === 'nodes' && parts[2] !== undefined) {
      const node = rawNodes[Number(parts[2])];
      if (isRecord(node) && typeof node.name === 'string') push(byNode, node.name, issue.message);
    } else if (parts[0] === 'definition' && parts[1] === 'edges' && parts[2] !== undefined) {
      const edge = rawEdges[Number(parts[2])];
      if (isRecord(edge) && typeof edge.to === 'string')
        for (const arrow of edgeArrowIds(edge as unknown as DefinitionEdge, Number(parts[2])))
          push(byArrow, arrow.id, issue.message);
    } else if (parts[0] === 'definition' && (parts[1] === 'routes' || parts[1] === 'loops') && parts[2] !== undefined) {
      for (const arrow of arrows) if (arrow.path === `${parts[1]}.${parts[2]}`) push(byArrow, arrow.id, issue.message);
    } else if (parts[0] === 'bindings' && parts[2] !== undefined) {
      const name = parts[2];
      for (const node of nodes) {
        const uses =
          (parts[1] === 'agents' && node.kind === 'agent' && node.agent === name) ||
          (parts[1] === 'tools' && node.kind === 'capability' && node.server === undefined && node.tool === name) ||
          (parts[1] === 'mcpServers' && node.kind === 'capability' && node.server === name) ||
          (parts[1] === 'teams' && node.kind === 'team' && node.team === name);
        if (uses) push(byNode, node.name, issue.message);
      }
    }
  }
  return { byNode, byArrow };
}

/** A position for every node the layout does not place yet: columns by distance from START. */
export function positionsOf(draft: WorkflowDraft): Record<string, { x: number; y: number }> {
  const names = ['START', ...nodesOf(draft.definition).map((node) => node.name), 'END'];
  const depth = new Map<string, number>([['START', 0]]);
  const edges = edgesOf(draft.definition);
  const arrows = conditionalArrows(draft.definition).filter((arrow) => !arrow.id.endsWith('-back'));
  const links = [
    ...edges.flatMap((edge) => (typeof edge.from === 'string' ? [edge.from] : edge.from).map((from) => [from, edge.to] as const)),
    ...arrows.map((arrow) => [arrow.from, arrow.to] as const),
  ];
  for (let pass = 0; pass < names.length; pass++)
    for (const [from, to] of links) {
      const before = depth.get(from);
      if (before !== undefined && to !== 'START' && (depth.get(to) ?? -1) < before + 1 && before + 1 < names.length)
        depth.set(to, before + 1);
    }
  const maximum = Math.max(0, ...depth.values());
  const rows = new Map<number, number>();
  const positions: Record<string, { x: number; y: number }> = {};
  for (const name of names) {
    const saved = draft.layout.nodes[name];
    if (saved) {
      positions[name] = saved;
      continue;
    }
    const column = name === 'END' ? Math.max(maximum, depth.get('END') ?? 0, 1) : (depth.get(name) ?? 1);
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions[name] = { x: 40 + column * 240, y: 40 + row * 130 };
  }
  return positions;
}

/** Replaces the definition's nodes (keeping every other field). */
export function withNodes(draft: WorkflowDraft, nodes: unknown[]): WorkflowDraft {
  return { ...draft, definition: { ...draft.definition, nodes } };
}

/** Replaces the definition's edges (keeping every other field). */
export function withEdges(draft: WorkflowDraft, edges: unknown[]): WorkflowDraft {
  return { ...draft, definition: { ...draft.definition, edges } };
}

/** Removes a node and every edge, join source, binding and position that only it used. */
export function deleteNode(draft: WorkflowDraft, name: string): WorkflowDraft {
  const rawNodes = Array.isArray(draft.definition.nodes) ? draft.definition.nodes : [];
  const nodes = rawNodes.filter((node) => !(isRecord(node) && node.name === name));
  const rawEdges = Array.isArray(draft.definition.edges) ? draft.definition.edges : [];
  const edges = rawEdges.flatMap((edge) => {
    if (!isRecord(edge)) return [edge];
    if (edge.to === name || edge.from === name) return [];
    if (Array.isArray(edge.from)) {
      const from = edge.from.filter((source) => source !== name);
      return from.length === 0 ? [] : [{ ...edge, from: from.length === 1 ? from[0] : from }];
    }
    return [edge];
  });
  const { [name]: _removed, ...positions } = draft.layout.nodes;
  return pruneBindings({ ...withEdges(withNodes(draft, nodes), edges), layout: { nodes: positions } });
}

/** Drops the bindings no node uses any more (a binding names a node's `agent`, `tool` or `server`). */
export function pruneBindings(draft: WorkflowDraft): WorkflowDraft {
  const nodes = nodesOf(draft.definition);
  const used = (kind: 'agent' | 'tool' | 'server', name: string) =>
    nodes.some((node) =>
      kind === 'agent'
        ? node.kind === 'agent' && node.agent === name
        : kind === 'tool'
          ? node.kind === 'capability' && node.server === undefined && node.tool === name
          : node.kind === 'capability' && node.server === name,
    );
  const keep = <T>(record: Record<string, T>, kind: 'agent' | 'tool' | 'server') =>
    Object.fromEntries(Object.entries(record).filter(([name]) => used(kind, name)));
  return {
    ...draft,
    bindings: {
      agents: keep(draft.bindings.agents, 'agent'),
      tools: keep(draft.bindings.tools, 'tool'),
      mcpServers: keep(draft.bindings.mcpServers, 'server'),
      ...(draft.bindings.teams
        ? {
            teams: Object.fromEntries(
              Object.entries(draft.bindings.teams).filter(([name]) =>
                nodes.some((node) => node.kind === 'team' && node.team === name),
              ),
            ),
          }
        : {}),
    },
  };
}

/** The state field names of the definition. */
export function stateFieldsOf(definition: Record<string, unknown>): Record<string, StateField> {
  return (isRecord(definition.state) ? definition.state : {}) as Record<string, StateField>;
}

/** Why a file cannot be imported: the id of a message of the catalogues (the page words it in the reader's language). */
export class ImportProblem extends Error {
  constructor(readonly id: 'workflow.import.notObject' | 'workflow.import.notWorkflow') {
    super(id);
    this.name = 'ImportProblem';
  }
}

/**
 * A definition file read for import: a whole draft (`definition`, `bindings`, `layout`) is taken
 * as it is; a bare SDK definition has its inline `agents` replaced by bindings to the space's
 * published agent apps of the same names, its tools bound to the space's tools of the same
 * names (a workflow calls published agents only), and its MCP nodes' `server` names bound to the
 * space's MCP server resources whose binding name (`mcpBindingNameOf`: the name, lower-cased)
 * is that name. Answers the draft and what could not be bound.
 */
export function importDefinition(
  parsed: unknown,
  agentApps: readonly { id: string; name: string }[],
  tools: readonly { id: string; name: string }[],
  mcpServers: readonly { id: string; name: string }[] = [],
): { draft: WorkflowDraft; unbound: string[] } {
  if (!isRecord(parsed)) throw new ImportProblem('workflow.import.notObject');
  if (isRecord(parsed.definition)) return { draft: normaliseWorkflowDraft(parsed), unbound: [] };
  if (parsed.kind !== 'workflow') throw new ImportProblem('workflow.import.notWorkflow');
  const { agents: _inline, ...definition } = parsed;
  const draft = normaliseWorkflowDraft({ definition });
  const unbound: string[] = [];
  for (const node of nodesOf(definition)) {
    if (node.kind === 'agent' && typeof node.agent === 'string') {
      const app = agentApps.find((candidate) => candidate.name === node.agent);
      if (app) draft.bindings.agents[node.agent] = { appId: app.id };
      else unbound.push(node.agent);
    } else if (node.kind === 'capability' && typeof node.tool === 'string' && node.server === undefined) {
      const tool = tools.find((candidate) => candidate.name === node.tool);
      if (tool) draft.bindings.tools[node.tool] = { resourceId: tool.id };
      else unbound.push(node.tool);
    } else if (node.kind === 'capability' && typeof node.server === 'string') {
      const name = node.server;
      const server = mcpServers.find((candidate) => mcpBindingNameOf(candidate) === name);
      if (server) draft.bindings.mcpServers[name] = { resourceId: server.id };
      else unbound.push(name);
    }
  }
  return { draft, unbound: [...new Set(unbound)] };
}
