import type { Kysely, Transaction } from 'kysely';
import type { SecretBox } from '../../crypto/index.js';
import type { ConnectionSettings } from '../../models/index.js';
import type { ModelConnectionRow, PlatformDatabase } from '../schema.js';

type Queryable = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

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

/** The active key of a connection, decrypted, or undefined; resolved at every construction (D-P3). */
export async function readActiveKey(
  database: Queryable,
  secretBox: SecretBox,
  connectionId: string,
): Promise<string | undefined> {
  const key = await database
    .selectFrom('model_connection_keys')
    .select('ciphertext')
    .where('connection_id', '=', connectionId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return key ? secretBox.open(key.ciphertext) : undefined;
}
