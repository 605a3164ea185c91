import { type FactStore, MemoryRunStore, type RunStore } from '@agentloom/sdk';
import type { Kysely, Transaction } from 'kysely';
import type { AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import type { WorkflowAssemblyPorts } from '../../assembly/index.js';
import type { McpConnectionSet } from '../../assembly/mcp-servers.js';
import { type DraftLookups, type WorkflowDraft, type WorkflowDraftLookups, workflowReferences } from '../../domain/index.js';
import { parseReleaseSnapshot } from '../../domain/release-snapshot.js';
import { type AssemblyPortsContext, databaseAssemblyPorts } from './database-assembly-ports.js';

type Queryable = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

/** What a draft's validation needs to know of the resources it names: those of the space, by id. */
export async function readResourceLookups(
  database: Queryable,
  spaceId: string,
  ids: readonly string[],
): Promise<DraftLookups['resources']> {
  const rows =
    ids.length === 0
      ? []
      : await database
          .selectFrom('resources')
          .select(['id', 'type', 'state', 'latest_version'])
          .where('space_id', '=', spaceId)
          .where('id', 'in', ids)
          .execute();
  return new Map(rows.map((row) => [row.id, { type: row.type, state: row.state, latestVersion: row.latest_version }]));
}

/** Reads what `validateWorkflowDraft` needs about the apps and resources a draft binds, in its space only. */
export async function readWorkflowLookups(
  database: Queryable,
  spaceId: string,
  draft: WorkflowDraft,
): Promise<WorkflowDraftLookups> {
  const { appIds, resourceIds } = workflowReferences(draft);
  const apps =
    appIds.length === 0
      ? []
      : await database
          .selectFrom('apps')
          .select(['id', 'kind', 'state', 'latest_release_id'])
          .where('space_id', '=', spaceId)
          .where('id', 'in', appIds)
          .execute();
  return {
    apps: new Map(apps.map((row) => [row.id, { kind: row.kind, state: row.state, latestReleaseId: row.latest_release_id }])),
    resources: await readResourceLookups(database, spaceId, resourceIds),
  };
}

/**
 * Ports that build a workflow of `app` from the platform database: its tools read in the
 * workflow's space, each agent release with the ports of its own app (file root, space). Inside
 * a transaction pass it as `queryable` (SQLite has one connection). Without a store the workflow
 * and its agents share one new memory store (a publish's dry run).
 */
export function databaseWorkflowPorts(
  services: AssemblyPortsContext,
  app: AppRow,
  options: {
    store?: RunStore;
    factStore?: FactStore;
    leaseMs?: number;
    queryable?: Queryable;
    mcpConnections?: McpConnectionSet;
  } = {},
): WorkflowAssemblyPorts {
  const database = options.queryable ?? services.database;
  const own = databaseAssemblyPorts(services, app, {
    ...(options.queryable ? { queryable: options.queryable } : {}),
  });
  return {
    readResourceVersion: own.readResourceVersion,
    readSecret: own.readSecret,
    fetch: own.fetch,
    store: options.store ?? new MemoryRunStore(),
    ...(options.mcpConnections ? { mcpConnections: options.mcpConnections } : {}),
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    async readAgentRelease(releaseId) {
      const release = await database.selectFrom('app_releases').selectAll().where('id', '=', releaseId).executeTakeFirstOrThrow();
      const agentApp = await database.selectFrom('apps').selectAll().where('id', '=', release.app_id).executeTakeFirstOrThrow();
      const snapshot = parseReleaseSnapshot(release.config_snapshot);
      if (snapshot.kind !== 'agent') throw new Error(`The release ${releaseId} is not an agent release.`);
      return {
        snapshot,
        ports: databaseAssemblyPorts(services, agentApp, {
          ...(options.queryable ? { queryable: options.queryable } : {}),
          ...(options.factStore ? { factStore: options.factStore } : {}),
        }),
      };
    },
  };
}
