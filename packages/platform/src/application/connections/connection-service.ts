import { maskSecret, newId } from '../../adapters/crypto/index.js';
import {
  type CatalogueEntry,
  type ConnectionView,
  deactivateKeys,
  deleteConnection,
  deleteKey,
  findConnection,
  hasActiveKey,
  insertConnection,
  insertKey,
  keyExists,
  listConnections,
  readConnection,
  readConnectionView,
  updateConnection,
  activateKey as writeActiveKey,
  writeCatalogue,
} from '../../adapters/database/repositories/connection-repository.js';
import type { ModelConnectionRow } from '../../adapters/database/schema.js';
import type { ConnectionSettings, Provider } from '../../domain/connection-settings.js';
import { notFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { deleteOrArchive } from '../delete-or-archive.js';

/** What the connection use cases work with. */
export type ConnectionContext = Pick<PlatformContext, 'database' | 'secretBox' | 'now'>;

/** A new connection (P-5.2): its first key, if any, becomes the active one. */
export interface NewConnection {
  name: string;
  provider: Provider;
  baseUrl: string | null;
  settings: ConnectionSettings;
  key?: { label: string; value: string } | undefined;
  models: readonly CatalogueEntry[];
}

/** The connection `connectionId` of the space; `not-found` otherwise (never says whether it exists elsewhere). */
export async function connectionOfSpace(
  context: Pick<PlatformContext, 'database'>,
  spaceId: string,
  connectionId: string,
): Promise<ModelConnectionRow> {
  const row = await findConnection(context.database, spaceId, connectionId);
  if (!row) throw notFoundError('The model connection');
  return row;
}

/** The space's connections, keys masked (NOT-30). */
export async function listSpaceConnections(context: Pick<PlatformContext, 'database'>, spaceId: string) {
  const rows = await listConnections(context.database, spaceId);
  return Promise.all(rows.map((row) => readConnectionView(context.database, row)));
}

/** A connection as the API shows it. */
export function connectionView(context: Pick<PlatformContext, 'database'>, row: ModelConnectionRow): Promise<ConnectionView> {
  return readConnectionView(context.database, row);
}

/** Creates a connection with its catalogue and optionally its first (active) key, sealed at rest. */
export function createConnection(
  context: ConnectionContext,
  spaceId: string,
  actor: string,
  input: NewConnection,
): Promise<ConnectionView> {
  const at = context.now().toISOString();
  const row: ModelConnectionRow = {
    id: newId('mc'),
    space_id: spaceId,
    name: input.name,
    provider: input.provider,
    base_url: input.baseUrl,
    settings: JSON.stringify(input.settings),
    state: 'active',
    created_by: actor,
    updated_at: at,
  };
  return context.database.transaction().execute(async (transaction) => {
    await insertConnection(transaction, row);
    if (input.key) await insertKey(transaction, row.id, sealKey(context, input.key, true, at));
    await writeCatalogue(transaction, row.id, input.models, false);
    return readConnectionView(transaction, row);
  });
}

/** Changes name, base URL, settings or the catalogue; the provider is fixed. */
export function changeConnection(
  context: ConnectionContext,
  row: ModelConnectionRow,
  changes: {
    name?: string | undefined;
    baseUrl?: string | null | undefined;
    settings?: ConnectionSettings | undefined;
    models?: readonly CatalogueEntry[] | undefined;
  },
): Promise<ConnectionView> {
  return context.database.transaction().execute(async (transaction) => {
    await updateConnection(transaction, row.id, {
      updated_at: context.now().toISOString(),
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.baseUrl !== undefined ? { base_url: changes.baseUrl } : {}),
      ...(changes.settings !== undefined ? { settings: JSON.stringify(changes.settings) } : {}),
    });
    if (changes.models) await writeCatalogue(transaction, row.id, changes.models, true);
    return readConnectionView(transaction, await readConnection(transaction, row.id));
  });
}

/** Deletes a connection; one that apps or releases reference is archived instead (answers true). */
export function removeConnection(context: ConnectionContext, row: ModelConnectionRow): Promise<boolean> {
  return deleteOrArchive(context, 'model-connection', row.id, updateConnection, deleteConnection);
}

/** Adds a labelled key, sealed at rest; it becomes active when asked or when no key is. */
export function addConnectionKey(
  context: ConnectionContext,
  row: ModelConnectionRow,
  key: { label: string; value: string; active: boolean },
): Promise<ConnectionView> {
  return context.database.transaction().execute(async (transaction) => {
    const active = key.active || !(await hasActiveKey(transaction, row.id));
    if (active) await deactivateKeys(transaction, row.id);
    await insertKey(transaction, row.id, sealKey(context, key, active, context.now().toISOString()));
    return readConnectionView(transaction, row);
  });
}

/** Makes a key the active one (the others become inactive); `not-found` for a key of another connection. */
export function activateConnectionKey(
  context: ConnectionContext,
  row: ModelConnectionRow,
  keyId: string,
): Promise<ConnectionView> {
  return context.database.transaction().execute(async (transaction) => {
    if (!(await keyExists(transaction, row.id, keyId))) throw notFoundError('The key');
    await deactivateKeys(transaction, row.id);
    await writeActiveKey(transaction, keyId);
    return readConnectionView(transaction, row);
  });
}

/** Deletes a key; `not-found` when the connection has no such key. */
export async function removeConnectionKey(context: ConnectionContext, row: ModelConnectionRow, keyId: string): Promise<void> {
  if (!(await deleteKey(context.database, row.id, keyId))) throw notFoundError('The key');
}

function sealKey(context: ConnectionContext, key: { label: string; value: string }, active: boolean, at: string) {
  return {
    id: newId('mk'),
    label: key.label,
    ciphertext: context.secretBox.seal(key.value),
    mask: maskSecret(key.value),
    active,
    createdAt: at,
  };
}
