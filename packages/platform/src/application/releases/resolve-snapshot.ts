import type { Transaction } from 'kysely';
import type { AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import { connectionSettingsSchema } from '../../adapters/models/index.js';
import { mcpServerNameOf } from '../../assembly/mcp-servers.js';
import type { AgentDraft, CapabilitySelection, PromptSource } from '../../domain/index.js';
import type { AgentReleaseSnapshot, FallbackModelSnapshot, PinnedResource, RoleSnapshot } from '../../domain/release-snapshot.js';

/**
 * Resolves a validated draft into a release snapshot inside the publish transaction: each
 * resource is pinned to its newest version as of now, and the model connection's non-secret
 * settings are frozen (D-P3). The draft must have passed `validateAgentDraft`.
 */
export async function resolveAgentSnapshot(
  transaction: Transaction<PlatformDatabase>,
  app: AppRow,
  draft: AgentDraft,
): Promise<{ snapshot: AgentReleaseSnapshot; pinned: PinnedResource[] }> {
  const pinned: PinnedResource[] = [];
  const latest = async (resourceId: string) => {
    const row = await transaction
      .selectFrom('resources')
      .innerJoin('resource_versions', (join) =>
        join
          .onRef('resource_versions.resource_id', '=', 'resources.id')
          .onRef('resource_versions.version', '=', 'resources.latest_version'),
      )
      .select(['resources.id', 'resources.name', 'resources.latest_version', 'resource_versions.storage_ref'])
      .where('resources.id', '=', resourceId)
      .where('resources.space_id', '=', app.space_id)
      .executeTakeFirstOrThrow();
    pinned.push({ resourceId: row.id, version: row.latest_version });
    return row;
  };
  /** One server name per MCP resource across the agent's roles, so every role calls its tools alike. */
  const serverNames = new Map<string, string>();
  const prompt = async (source: PromptSource): Promise<RoleSnapshot['prompt']> => {
    if ('text' in source) return { text: source.text };
    const row = await latest(source.resourceId);
    return { resourceId: row.id, version: row.latest_version };
  };
  const role = async (source: PromptSource, selection: CapabilitySelection): Promise<RoleSnapshot> => {
    const tools = [];
    for (const id of selection.tools) {
      const row = await latest(id);
      tools.push({ resourceId: row.id, version: row.latest_version, name: row.name });
    }
    const skills = [];
    for (const id of selection.skills) {
      const row = await latest(id);
      skills.push({ resourceId: row.id, version: row.latest_version, name: row.name, storageRef: row.storage_ref ?? '' });
    }
    const mcpServers = [];
    for (const id of selection.mcpServers) {
      const row = await latest(id);
      let name = serverNames.get(row.id);
      if (name === undefined) {
        name = mcpServerNameOf(row.name, new Set(serverNames.values()));
        serverNames.set(row.id, name);
      }
      mcpServers.push({ resourceId: row.id, version: row.latest_version, name });
    }
    const remoteAgents = [];
    for (const id of selection.remoteAgents) {
      const row = await latest(id);
      remoteAgents.push({ resourceId: row.id, version: row.latest_version, name: row.name });
    }
    return {
      prompt: await prompt(source),
      builtIn: [...selection.builtIn],
      tools,
      skills,
      ...(mcpServers.length > 0 ? { mcpServers } : {}),
      ...(remoteAgents.length > 0 ? { remoteAgents } : {}),
    };
  };
  const model = draft.model;
  if (!model) throw new Error('resolveAgentSnapshot needs a validated draft (model missing)');
  // The draft was validated: its connections exist in the app's space.
  const connectionOf = (connectionId: string) =>
    transaction
      .selectFrom('model_connections')
      .selectAll()
      .where('id', '=', connectionId)
      .where('space_id', '=', app.space_id)
      .executeTakeFirstOrThrow();
  const connection = await connectionOf(model.connectionId);
  const catalogued = await transaction
    .selectFrom('models')
    .select('context_window')
    .where('connection_id', '=', connection.id)
    .where('model_id', '=', model.modelId)
    .executeTakeFirst();
  const fallbacks: FallbackModelSnapshot[] = [];
  for (const fallback of model.fallbacks ?? []) {
    const row = await connectionOf(fallback.connectionId);
    fallbacks.push({
      connectionId: row.id,
      provider: row.provider,
      baseUrl: row.base_url,
      settings: connectionSettingsSchema.parse(JSON.parse(row.settings)),
      modelId: fallback.modelId,
    });
  }
  const mode = app.mode ?? 'react';
  const entrySource = mode === 'react' ? draft.prompt : draft.planner?.prompt;
  const entrySelection = mode === 'react' ? draft.capabilities : draft.planner?.capabilities;
  if (!entrySource || !entrySelection) throw new Error('resolveAgentSnapshot needs a validated draft (entry role missing)');
  const entry = await role(entrySource, entrySelection);
  const executors = [];
  for (const executor of mode === 'plan-executor' ? draft.executors : []) {
    executors.push({
      ...(await role(executor.prompt, executor.capabilities)),
      name: executor.name,
      description: executor.description,
      ...(executor.background ? { background: true } : {}),
    });
  }
  // Hooks belong to the agent, not a role (P-4.11); each gets a unique journal name from its resource name.
  const hooks: (PinnedResource & { name: string })[] = [];
  for (const id of new Set(draft.hooks)) {
    const row = await latest(id);
    hooks.push({
      resourceId: row.id,
      version: row.latest_version,
      name: hookNameOf(row.name, new Set(hooks.map((hook) => hook.name))),
    });
  }
  const snapshot: AgentReleaseSnapshot = {
    schemaVersion: 1,
    kind: 'agent',
    mode,
    name: agentNameOf(app),
    description: app.description,
    model: {
      connectionId: connection.id,
      provider: connection.provider,
      baseUrl: connection.base_url,
      settings: connectionSettingsSchema.parse(JSON.parse(connection.settings)),
      modelId: model.modelId,
      ...(model.thinking ? { thinking: model.thinking } : {}),
      ...(model.maxOutputTokens ? { maxOutputTokens: model.maxOutputTokens } : {}),
      ...(catalogued?.context_window ? { contextWindow: catalogued.context_window } : {}),
      credential: { connectionId: connection.id },
      ...(fallbacks.length > 0 ? { fallbacks } : {}),
    },
    ...(draft.memory?.enabled ? { memory: draft.memory } : {}),
    entry,
    executors,
    variables: draft.variables,
    execution: draft.execution,
    context: draft.context,
    environment: draft.environment,
    ...(hooks.length > 0 ? { hooks } : {}),
    ...(draft.permissions ? { permissions: draft.permissions } : {}),
    interruptsRunsInProgress: true,
  };
  return { snapshot, pinned };
}

/** The SDK agent name of an app: letters, digits, `_`, `-` and `.` only (the app id when nothing is left). */
export function agentNameOf(app: Pick<AppRow, 'id' | 'name'>): string {
  const slug = app.name
    .replaceAll(/[^A-Za-z0-9_.-]+/g, '-')
    .replaceAll(/^-+|-+$/g, '')
    .slice(0, 64);
  return slug || app.id;
}

/** A hook's journal name: its resource name, with `-2`, `-3` … added when another hook of the agent has it. */
export function hookNameOf(resourceName: string, taken: ReadonlySet<string>): string {
  let name = resourceName;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${resourceName}-${suffix}`;
  return name;
}
