import type { ConnectionSettings } from '../../../domain/connection-settings.js';
import type { SecretBox } from '../../crypto/index.js';
import type { Queryable } from '../queryable.js';
import type { ModelConnectionRow } from '../schema.js';

/** A connection as the API shows it: keys masked (NOT-30), catalogue included. */
export interface ConnectionView {
  id: string;
  spaceId: string;
  name: string;
  provider: ModelConnectionRow['provider'];
  baseUrl: string | null;
  settings: ConnectionSettings;
  state: 'active' | 'archived';
  keys: { id: string; label: string; mask: string; active: boolean; createdAt: string }[];
  models: { modelId: string; contextWindow: number | null; supportsThinking: boolean; enabled: boolean }[];
  updatedAt: string;
}

/** Reads a connection with its masked keys and catalogue. */
export async function readConnectionView(database: Queryable, row: ModelConnectionRow): Promise<ConnectionView> {
  const keys = await database
    .selectFrom('model_connection_keys')
    .select(['id', 'label', 'mask', 'active', 'created_at'])
    .where('connection_id', '=', row.id)
    .orderBy('created_at')
    .execute();
  const models = await database
    .selectFrom('models')
    .selectAll()
    .where('connection_id', '=', row.id)
    .orderBy('model_id')
    .execute();
  return {
    id: row.id,
    spaceId: row.space_id,
    name: row.name,
    provider: row.provider,
    baseUrl: row.base_url,
    settings: JSON.parse(row.settings) as ConnectionSettings,
    state: row.state,
    keys: keys.map((key) => ({
      id: key.id,
      label: key.label,
      mask: key.mask,
      active: key.active === 1,
      createdAt: key.created_at,
    })),
    models: models.map((model) => ({
      modelId: model.model_id,
      contextWindow: model.context_window,
      supportsThinking: model.supports_thinking === 1,
      enabled: model.enabled === 1,
    })),
    updatedAt: row.updated_at,
  };
}

/** The active key row of a connection (its id and sealed value), or undefined. */
function findActiveKey(database: Queryable, connectionId: string) {
  return database
    .selectFrom('model_connection_keys')
    .select(['id', 'ciphertext'])
    .where('connection_id', '=', connectionId)
    .where('active', '=', 1)
    .executeTakeFirst();
}

/** The active key of a connection, decrypted, or undefined; resolved at every construction (D-P3). */
export async function readActiveKey(
  database: Queryable,
  secretBox: SecretBox,
  connectionId: string,
): Promise<string | undefined> {
  const key = await findActiveKey(database, connectionId);
  return key ? secretBox.open(key.ciphertext) : undefined;
}

/** A connection's catalogue entry as the API takes it. */
export interface CatalogueEntry {
  modelId: string;
  contextWindow: number | null;
  supportsThinking: boolean;
  enabled: boolean;
}

/** A new key of a connection: its label, sealed value and mask. */
export interface SealedKey {
  id: string;
  label: string;
  ciphertext: string;
  mask: string;
  active: boolean;
  createdAt: string;
}

/** The connection `connectionId` of the space, or undefined. */
export function findConnection(database: Queryable, spaceId: string, connectionId: string) {
  return database
    .selectFrom('model_connections')
    .selectAll()
    .where('id', '=', connectionId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
}

/** The space's connections, by name. */
export function listConnections(database: Queryable, spaceId: string): Promise<ModelConnectionRow[]> {
  return database.selectFrom('model_connections').selectAll().where('space_id', '=', spaceId).orderBy('name').execute();
}

/** The connection `connectionId` (any space); throws when it does not exist. */
export function readConnection(database: Queryable, connectionId: string): Promise<ModelConnectionRow> {
  return database.selectFrom('model_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
}

export async function insertConnection(database: Queryable, row: ModelConnectionRow): Promise<void> {
  await database.insertInto('model_connections').values(row).execute();
}

export async function updateConnection(
  database: Queryable,
  connectionId: string,
  changes: Partial<Pick<ModelConnectionRow, 'name' | 'base_url' | 'settings' | 'state'>> & { updated_at: string },
): Promise<void> {
  await database.updateTable('model_connections').set(changes).where('id', '=', connectionId).execute();
}

export async function deleteConnection(database: Queryable, connectionId: string): Promise<void> {
  await database.deleteFrom('model_connections').where('id', '=', connectionId).execute();
}

/** Replaces the connection's catalogue (`replace: false` only adds, for a new connection). */
export async function writeCatalogue(
  database: Queryable,
  connectionId: string,
  models: readonly CatalogueEntry[],
  replace: boolean,
): Promise<void> {
  if (replace) await database.deleteFrom('models').where('connection_id', '=', connectionId).execute();
  for (const model of models) {
    await database
      .insertInto('models')
      .values({
        connection_id: connectionId,
        model_id: model.modelId,
        context_window: model.contextWindow,
        supports_thinking: model.supportsThinking ? 1 : 0,
        enabled: model.enabled ? 1 : 0,
      })
      .execute();
  }
}

/** Whether the connection has an active key. */
export async function hasActiveKey(database: Queryable, connectionId: string): Promise<boolean> {
  return (await findActiveKey(database, connectionId)) !== undefined;
}

/** Makes every key of the connection inactive (before another one becomes the active key). */
export async function deactivateKeys(database: Queryable, connectionId: string): Promise<void> {
  await database.updateTable('model_connection_keys').set({ active: 0 }).where('connection_id', '=', connectionId).execute();
}

export async function insertKey(database: Queryable, connectionId: string, key: SealedKey): Promise<void> {
  await database
    .insertInto('model_connection_keys')
    .values({
      id: key.id,
      connection_id: connectionId,
      label: key.label,
      ciphertext: key.ciphertext,
      mask: key.mask,
      active: key.active ? 1 : 0,
      created_at: key.createdAt,
    })
    .execute();
}

/** Whether the key `keyId` belongs to the connection. */
export async function keyExists(database: Queryable, connectionId: string, keyId: string): Promise<boolean> {
  const key = await database
    .selectFrom('model_connection_keys')
    .select('id')
    .where('id', '=', keyId)
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
  return key !== undefined;
}

export async function activateKey(database: Queryable, keyId: string): Promise<void> {
  await database.updateTable('model_connection_keys').set({ active: 1 }).where('id', '=', keyId).execute();
}

/** Deletes the key; answers whether there was one. */
export async function deleteKey(database: Queryable, connectionId: string, keyId: string): Promise<boolean> {
  const result = await database
    .deleteFrom('model_connection_keys')
    .where('id', '=', keyId)
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
