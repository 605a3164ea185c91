import type { Kysely, Transaction } from 'kysely';
import { findConnection, hasActiveKey } from '../../adapters/database/repositories/connection-repository.js';
import type { AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import { type AgentDraft, type DraftLookups, referencedResources, type WorkflowDraft } from '../../domain/index.js';
import { readResourceLookups, readWorkflowLookups } from './workflow-lookups.js';

type Queryable = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

/** Reads what `validateAgentDraft` needs about the resources and connection a draft names, in its space only. */
export async function readDraftLookups(database: Queryable, spaceId: string, draft: AgentDraft): Promise<DraftLookups> {
  const ids = [...new Set(referencedResources(draft).map((reference) => reference.resourceId))];
  const resources = await readResourceLookups(database, spaceId, ids);
  const connections: DraftLookups['connections'] extends ReadonlyMap<string, infer Value> ? Map<string, Value> : never =
    new Map();
  // The model's connection and those of its fallback chain (N-15).
  const connectionIds = draft.model
    ? [...new Set([draft.model.connectionId, ...(draft.model.fallbacks ?? []).map((fallback) => fallback.connectionId)])]
    : [];
  for (const connectionId of connectionIds) {
    const connection = await findConnection(database, spaceId, connectionId);
    if (connection) {
      const models = await database
        .selectFrom('models')
        .select(['model_id', 'enabled'])
        .where('connection_id', '=', connection.id)
        .execute();
      connections.set(connection.id, {
        state: connection.state,
        provider: connection.provider,
        hasActiveKey: await hasActiveKey(database, connection.id),
        models: new Map(models.map((model) => [model.model_id, { enabled: model.enabled === 1 }])),
      });
    }
  }
  return { resources, connections };
}

/**
 * Replaces the "who uses this" rows of an app's saved draft (`release_id` null) with what the
 * draft names now; only ids that exist in the app's space are recorded. An agent draft names
 * resources and model connections (the model's and its fallback chain's, N-15); a workflow draft
 * tools, MCP servers and agent apps through its bindings; a router's draft names apps, which are
 * checked at publish, so it keeps none.
 */
export async function replaceDraftReferences(
  transaction: Transaction<PlatformDatabase>,
  app: Pick<AppRow, 'id' | 'space_id' | 'kind'>,
  draft: AgentDraft | WorkflowDraft | Record<string, unknown>,
  newId: () => string,
): Promise<void> {
  if (app.kind === 'router') return;
  if (app.kind === 'agent') {
    const agentDraft = draft as AgentDraft;
    const lookups = await readDraftLookups(transaction, app.space_id, agentDraft);
    const ids = [...new Set(referencedResources(agentDraft).map((reference) => reference.resourceId))].filter((id) =>
      lookups.resources.has(id),
    );
    await replaceDraftReferenceRows(transaction, app.id, newId, [
      ...referencesTo('resource', ids),
      ...referencesTo('model-connection', lookups.connections.keys()),
    ]);
    return;
  }
  const lookups = await readWorkflowLookups(transaction, app.space_id, draft as WorkflowDraft);
  await replaceDraftReferenceRows(transaction, app.id, newId, [
    ...referencesTo('resource', lookups.resources.keys()),
    ...referencesTo('agent-app', lookups.apps.keys()),
  ]);
}

/** What a reference row points at: a resource, a model connection or an agent app. */
type ReferenceTarget = { target_kind: 'resource' | 'model-connection' | 'agent-app'; resource_id: string };

/** The reference rows to each of `ids`, all of one kind. */
function referencesTo(kind: ReferenceTarget['target_kind'], ids: Iterable<string>): ReferenceTarget[] {
  return [...ids].map((id) => ({ target_kind: kind, resource_id: id }));
}

/** Replaces the app's draft reference rows (`release_id` null) with `rows`. */
async function replaceDraftReferenceRows(
  transaction: Transaction<PlatformDatabase>,
  appId: string,
  newId: () => string,
  rows: readonly ReferenceTarget[],
): Promise<void> {
  await transaction.deleteFrom('app_resource_refs').where('app_id', '=', appId).where('release_id', 'is', null).execute();
  for (const row of rows) {
    await transaction
      .insertInto('app_resource_refs')
      .values({ id: newId(), app_id: appId, release_id: null, resource_version: null, ...row })
      .execute();
  }
}
