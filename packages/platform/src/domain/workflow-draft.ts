import { workflowDefinitionSchema } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';
import type { DraftIssue } from './validate-agent-draft.js';
import { teamBindingSchema, validateTeamBinding } from './workflow-team.js';

/** A definition with nothing in it yet (a new canvas). */
function emptyDefinition(name: string): Record<string, unknown> {
  return { formatVersion: 1, kind: 'workflow', name, state: {}, nodes: [], edges: [] };
}

/** The workflow draft format version; a release records it so that old snapshots stay readable. */
export const workflowDraftSchemaVersion = 1;

const bindingName = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'letters, digits, _, - and . only, 1 to 128 characters');
const id = z.string().min(1).max(100);

/**
 * A workflow app's draft (ADR 0013): the SDK's JSON `WorkflowDefinition` as the canvas edits it,
 * plus the platform's bindings of the names it uses and the canvas layout. The definition is
 * kept as the author saved it, even half-built, so a canvas can save work in progress; its
 * problems are listed by `POST /draft/validate` and refuse a publish. Only the envelope is
 * checked on save (unknown fields refused).
 */
export const workflowDraftSchema = z
  .strictObject({
    definition: z
      .record(z.string(), z.unknown())
      .default(() => emptyDefinition('workflow'))
      .openapi({
        description:
          'The SDK workflow definition (format version 1, `@agentloom/sdk/schemas/workflow-definition.schema.json`) without inline `agents`: an agent node names a key of `bindings.agents`, a capability node names a key of `bindings.tools` (or, with `server`, of `bindings.mcpServers`).',
      }),
    bindings: z
      .strictObject({
        agents: z
          .record(bindingName, z.strictObject({ appId: id }))
          .default({})
          .openapi({ description: 'Agent names → a published agent app of this space (P-7.1: complete agents only).' }),
        tools: z
          .record(bindingName, z.strictObject({ resourceId: id }))
          .default({})
          .openapi({ description: 'Tool names → a custom HTTP tool resource of this space.' }),
        mcpServers: z
          .record(bindingName, z.strictObject({ resourceId: id }))
          .default({})
          .openapi({ description: 'MCP server names → an MCP server resource of this space.' }),
        remoteAgents: z
          .record(bindingName, z.strictObject({ resourceId: id }))
          .optional()
          .openapi({
            description:
              'Remote agent names → a remote A2A agent resource of this space; a capability node names one in `tool` (N-13).',
          }),
        teams: z.record(bindingName, teamBindingSchema).optional().openapi({
          description:
            'Team names → a team (topology, members = published agent apps of this space, termination, budget); a team node names one in `team` (N-12).',
        }),
      })
      .default({ agents: {}, tools: {}, mcpServers: {} }),
    layout: z
      .strictObject({
        nodes: z.record(z.string().max(128), z.strictObject({ x: z.number().finite(), y: z.number().finite() })).default({}),
      })
      .default({ nodes: {} })
      .openapi({ description: 'Canvas positions by node name (and START / END); ignored when running.' }),
  })
  .openapi('WorkflowDraft');

/** A parsed workflow draft. */
export type WorkflowDraft = z.output<typeof workflowDraftSchema>;

/** The draft of a new workflow app: no state and no nodes yet. */
export function emptyWorkflowDraft(name: string): WorkflowDraft {
  return {
    definition: emptyDefinition(name),
    bindings: { agents: {}, tools: {}, mcpServers: {} },
    layout: { nodes: {} },
  };
}

/** What workflow validation needs to know about the space, read before it runs (no I/O in here). */
export interface WorkflowDraftLookups {
  apps: ReadonlyMap<
    string,
    { kind: 'agent' | 'workflow' | 'router'; state: 'active' | 'deleting'; latestReleaseId: string | null }
  >;
  resources: ReadonlyMap<string, { type: string; state: 'active' | 'archived'; latestVersion: number }>;
}

/** The SDK definition of a draft when it parses, with its agent and capability node names. */
export function parseDefinition(draft: WorkflowDraft) {
  return workflowDefinitionSchema.safeParse(draft.definition);
}

/**
 * Every problem of a workflow draft that stops a publish, at once: the SDK format (paths under
 * `definition.`), inline agents (a workflow calls published agent apps only, P-7.1), names a
 * node uses that no binding resolves, and every binding (an agent app of this space, not a
 * workflow, published and not being deleted; a tool or MCP server resource of the right type,
 * active, with a version). The graph checks of the SDK (`WorkflowIssue`s) come from building
 * the workflow, which publish and `validate` do next.
 */
export function validateWorkflowDraft(draft: WorkflowDraft, lookups: WorkflowDraftLookups): DraftIssue[] {
  const issues: DraftIssue[] = [];
  const issue = (path: string, code: string, message: string) => issues.push({ path, code, message });
  const parsed = parseDefinition(draft);
  if (!parsed.success) {
    for (const problem of parsed.error.issues)
      issue(['definition', ...problem.path.map(String)].join('.'), problem.code, problem.message);
  } else {
    const definition = parsed.data;
    if (definition.agents && Object.keys(definition.agents).length > 0)
      issue(
        'definition.agents',
        'inline-agent',
        'A workflow calls published agent apps only: bind each agent name in bindings.agents instead.',
      );
    for (const [index, node] of definition.nodes.entries()) {
      // An input node asks a person (issue 36): it binds nothing.
      if (node.kind === 'input') continue;
      if (node.kind === 'team') {
        if (!Object.hasOwn(draft.bindings.teams ?? {}, node.team))
          issue(`definition.nodes.${index}.team`, 'unbound', `No team is bound to "${node.team}" in bindings.teams.`);
      } else if (node.kind === 'agent') {
        if (!Object.hasOwn(draft.bindings.agents, node.agent))
          issue(`definition.nodes.${index}.agent`, 'unbound', `No agent app is bound to "${node.agent}" in bindings.agents.`);
      } else if (node.server !== undefined) {
        if (!Object.hasOwn(draft.bindings.mcpServers, node.server))
          issue(
            `definition.nodes.${index}.server`,
            'unbound',
            `No MCP server is bound to "${node.server}" in bindings.mcpServers.`,
          );
      } else if (!Object.hasOwn(draft.bindings.tools, node.tool) && !Object.hasOwn(draft.bindings.remoteAgents ?? {}, node.tool))
        issue(
          `definition.nodes.${index}.tool`,
          'unbound',
          `No tool is bound to "${node.tool}" in bindings.tools or bindings.remoteAgents.`,
        );
    }
  }
  const checkAgentApp = (path: string, appId: string) => {
    const app = lookups.apps.get(appId);
    if (!app) issue(path, 'not-found', 'No such app in this space.');
    else if (app.kind !== 'agent') issue(path, 'not-an-agent', 'A workflow node calls a complete agent app, never a workflow.');
    else if (app.state !== 'active') issue(path, 'app-deleting', 'The agent app is being deleted.');
    else if (app.latestReleaseId === null) issue(path, 'unpublished', 'The agent app has no release; publish it first.');
  };
  for (const [name, binding] of Object.entries(draft.bindings.agents))
    checkAgentApp(`bindings.agents.${name}.appId`, binding.appId);
  for (const [name, team] of Object.entries(draft.bindings.teams ?? {})) {
    issues.push(...validateTeamBinding(name, team));
    const seen = new Set<string>();
    for (const [index, member] of team.members.entries()) {
      if (seen.has(member.name))
        issue(`bindings.teams.${name}.members.${index}.name`, 'duplicate-member', `Two members are named "${member.name}".`);
      seen.add(member.name);
      checkAgentApp(`bindings.teams.${name}.members.${index}.appId`, member.appId);
    }
  }
  const checkResource = (path: string, resourceId: string, type: 'tool' | 'mcp-server' | 'remote-agent') => {
    const resource = lookups.resources.get(resourceId);
    if (!resource) issue(path, 'not-found', 'No such resource in this space.');
    else if (resource.type !== type) issue(path, 'wrong-type', `Expected a ${type}, found a ${resource.type}.`);
    else if (resource.state !== 'active') issue(path, 'archived', 'The resource is archived.');
    else if (resource.latestVersion < 1) issue(path, 'no-version', 'The resource has no version yet.');
  };
  for (const [name, binding] of Object.entries(draft.bindings.tools))
    checkResource(`bindings.tools.${name}.resourceId`, binding.resourceId, 'tool');
  for (const [name, binding] of Object.entries(draft.bindings.mcpServers))
    checkResource(`bindings.mcpServers.${name}.resourceId`, binding.resourceId, 'mcp-server');
  for (const [name, binding] of Object.entries(draft.bindings.remoteAgents ?? {})) {
    checkResource(`bindings.remoteAgents.${name}.resourceId`, binding.resourceId, 'remote-agent');
    if (Object.hasOwn(draft.bindings.tools, name))
      issue(`bindings.remoteAgents.${name}`, 'duplicate', `"${name}" is bound in bindings.tools too; a node names one of them.`);
  }
  return issues;
}

/** The agent app ids (team members included) and resource ids a draft's bindings name. */
export function workflowReferences(draft: WorkflowDraft): { appIds: string[]; resourceIds: string[] } {
  return {
    appIds: [
      ...new Set([
        ...Object.values(draft.bindings.agents).map((binding) => binding.appId),
        ...Object.values(draft.bindings.teams ?? {}).flatMap((team) => team.members.map((member) => member.appId)),
      ]),
    ],
    resourceIds: [
      ...new Set(
        [
          ...Object.values(draft.bindings.tools),
          ...Object.values(draft.bindings.mcpServers),
          ...Object.values(draft.bindings.remoteAgents ?? {}),
        ].map((b) => b.resourceId),
      ),
    ],
  };
}
