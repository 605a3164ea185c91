import path from 'node:path';
import type { FactStore, RunStore } from '@agentloom/sdk';
import type { Kysely, Transaction } from 'kysely';
import { readActiveKey } from '../../adapters/database/repositories/connection-repository.js';
import type { AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import type { AssemblyPorts } from '../../assembly/index.js';
import type { McpConnectionSet } from '../../assembly/mcp-servers.js';
import type { PlatformContext } from '../context.js';
import { mcpAuthorizationOf } from './mcp-authorization-of.js';

/** What the assembly ports read with: the database, the secret box, the data directory, the outbound module. */
export type AssemblyPortsContext = Pick<
  PlatformContext,
  'database' | 'dialect' | 'secretBox' | 'config' | 'outbound' | 'factStore' | 'now'
>;

/**
 * Assembly ports that read the platform database for one app, whose requests go through the
 * platform's outbound module (P-15.1). Inside a transaction pass it as
 * `queryable`: SQLite has one connection, so reading outside the transaction would wait forever.
 */
export function databaseAssemblyPorts(
  services: AssemblyPortsContext,
  app: Pick<AppRow, 'space_id' | 'file_root'>,
  options: {
    store?: RunStore;
    factStore?: FactStore;
    leaseMs?: number;
    mcpConnections?: McpConnectionSet;
    queryable?: Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;
  } = {},
): AssemblyPorts {
  const { secretBox, config } = services;
  const database = options.queryable ?? services.database;
  const ports: AssemblyPorts = {
    async readResourceVersion(resourceId, version) {
      const row = await database
        .selectFrom('resource_versions')
        .innerJoin('resources', 'resources.id', 'resource_versions.resource_id')
        .select(['resource_versions.content', 'resource_versions.storage_ref'])
        .where('resource_versions.resource_id', '=', resourceId)
        .where('resource_versions.version', '=', version)
        .where('resources.space_id', '=', app.space_id)
        .executeTakeFirstOrThrow();
      return { content: row.content ? JSON.parse(row.content) : null, storageRef: row.storage_ref };
    },
    readActiveKey: (connectionId) => readActiveKey(database, secretBox, connectionId),
    async readSecret(name) {
      const row = await database
        .selectFrom('secrets')
        .select('ciphertext')
        .where('space_id', '=', app.space_id)
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? secretBox.open(row.ciphertext) : undefined;
    },
    resourcesDirectory: path.join(config.dataDirectory, 'resources'),
    fileRoot: app.file_root,
    ...(options.store ? { store: options.store } : {}),
    // Agents with memory keep facts in the platform's fact store (N-15); a publish dry run only names it.
    ...((options.factStore ?? services.factStore) ? { factStore: options.factStore ?? services.factStore } : {}),
    fetch: services.outbound.fetch,
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(options.mcpConnections ? { mcpConnections: options.mcpConnections } : {}),
    // The token store writes in its own transactions (a refresh), on the services' database.
    mcpAuthorization: async (resourceId, oauth) => {
      const resource = await database
        .selectFrom('resources')
        .select(['id', 'name'])
        .where('id', '=', resourceId)
        .executeTakeFirstOrThrow();
      return mcpAuthorizationOf(services, resource, oauth, ports.readSecret, database);
    },
  };
  return ports;
}
