import { type Kysely, sql } from 'kysely';
import { createTable } from './tables.js';

/**
 * The first schema of the platform database. Written only with portable column types (text,
 * integer) so that one migration serves SQLite and PostgreSQL alike (D-P13).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(database, 'users', {
    id: 'text primary key',
    email: 'text not null unique',
    display_name: 'text not null',
    password_hash: 'text not null',
    is_instance_admin: 'integer not null default 0',
    status: 'text not null',
    created_at: 'text not null',
  });

  await createTable(database, 'web_sessions', {
    id: 'text primary key',
    user_id: 'text not null references users.id on delete cascade',
    expires_at: 'text not null',
    created_at: 'text not null',
    ip: 'text',
    user_agent: 'text',
  });

  await createTable(database, 'spaces', {
    id: 'text primary key',
    name: 'text not null',
    state: 'text not null',
    created_by: 'text not null references users.id',
    created_at: 'text not null',
  });

  await createTable(
    database,
    'space_members',
    {
      space_id: 'text not null references spaces.id on delete cascade',
      user_id: 'text not null references users.id on delete cascade',
      role: 'text not null',
      created_at: 'text not null',
    },
    { primaryKey: { space_members_pk: ['space_id', 'user_id'] } },
  );

  await createTable(
    database,
    'apps',
    {
      id: 'text primary key',
      space_id: 'text not null references spaces.id',
      kind: 'text not null',
      name: 'text not null',
      description: 'text not null',
      mode: 'text',
      file_root: 'text not null',
      state: 'text not null',
      latest_release_id: 'text',
      created_by: 'text not null',
      created_at: 'text not null',
      updated_at: 'text not null',
    },
    { indexes: { apps_space: ['space_id', 'kind'] } },
  );

  await createTable(database, 'api_keys', {
    id: 'text primary key',
    space_id: 'text not null references spaces.id on delete cascade',
    app_id: 'text references apps.id on delete cascade',
    name: 'text not null',
    prefix: 'text not null',
    secret_hash: 'text not null unique',
    created_by: 'text not null',
    created_at: 'text not null',
    last_used_at: 'text',
    revoked_at: 'text',
  });

  await createTable(
    database,
    'secrets',
    {
      id: 'text primary key',
      space_id: 'text not null references spaces.id on delete cascade',
      name: 'text not null',
      ciphertext: 'text not null',
      mask: 'text not null',
      created_by: 'text not null',
      updated_at: 'text not null',
    },
    { unique: { secrets_space_name: ['space_id', 'name'] } },
  );

  await createTable(database, 'model_connections', {
    id: 'text primary key',
    space_id: 'text not null references spaces.id',
    name: 'text not null',
    provider: 'text not null',
    base_url: 'text',
    settings: 'text not null',
    state: 'text not null',
    created_by: 'text not null',
    updated_at: 'text not null',
  });

  await createTable(database, 'model_connection_keys', {
    id: 'text primary key',
    connection_id: 'text not null references model_connections.id on delete cascade',
    label: 'text not null',
    ciphertext: 'text not null',
    mask: 'text not null',
    active: 'integer not null',
    created_at: 'text not null',
  });
  // One active key per connection, enforced by the database itself (P-14.8).
  await sql`create unique index model_connection_keys_one_active on model_connection_keys (connection_id) where active = 1`.execute(
    database,
  );

  await createTable(
    database,
    'models',
    {
      connection_id: 'text not null references model_connections.id on delete cascade',
      model_id: 'text not null',
      context_window: 'integer',
      supports_thinking: 'integer not null',
      enabled: 'integer not null',
    },
    { primaryKey: { models_pk: ['connection_id', 'model_id'] } },
  );

  await createTable(
    database,
    'resources',
    {
      id: 'text primary key',
      space_id: 'text not null references spaces.id',
      type: 'text not null',
      name: 'text not null',
      description: 'text not null',
      state: 'text not null',
      latest_version: 'integer not null',
      created_by: 'text not null',
      updated_at: 'text not null',
    },
    { indexes: { resources_space: ['space_id', 'type'] } },
  );

  await createTable(
    database,
    'resource_versions',
    {
      resource_id: 'text not null references resources.id on delete cascade',
      version: 'integer not null',
      content: 'text',
      storage_ref: 'text',
      content_hash: 'text not null',
      created_by: 'text not null',
      created_at: 'text not null',
    },
    { primaryKey: { resource_versions_pk: ['resource_id', 'version'] } },
  );

  await createTable(database, 'app_drafts', {
    app_id: 'text primary key references apps.id on delete cascade',
    config: 'text not null',
    schema_version: 'integer not null',
    revision: 'integer not null',
    updated_by: 'text not null',
    updated_at: 'text not null',
  });

  await createTable(
    database,
    'app_releases',
    {
      id: 'text primary key',
      app_id: 'text not null references apps.id on delete cascade',
      version: 'integer not null',
      kind: 'text not null',
      config_snapshot: 'text not null',
      content_hash: 'text not null',
      notes: 'text not null',
      interrupt_runs: 'integer not null',
      published_by: 'text not null',
      published_at: 'text not null',
    },
    { unique: { app_releases_version: ['app_id', 'version'] } },
  );

  await createTable(
    database,
    'app_resource_refs',
    {
      id: 'text primary key',
      app_id: 'text not null references apps.id on delete cascade',
      release_id: 'text references app_releases.id on delete cascade',
      target_kind: 'text not null',
      resource_id: 'text not null',
      resource_version: 'integer',
    },
    { indexes: { app_resource_refs_resource: ['resource_id'] } },
  );
}

/** Drops everything `up` created, in reverse order of dependency. */
export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of [
    'app_resource_refs',
    'app_releases',
    'app_drafts',
    'resource_versions',
    'resources',
    'models',
    'model_connection_keys',
    'model_connections',
    'secrets',
    'api_keys',
    'apps',
    'space_members',
    'spaces',
    'web_sessions',
    'users',
  ]) {
    await database.schema.dropTable(table).ifExists().execute();
  }
}
