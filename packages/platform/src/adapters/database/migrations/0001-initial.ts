import { type Kysely, sql } from 'kysely';

/**
 * The first schema of the platform database. Written only with portable column types (text,
 * integer) so that one migration serves SQLite and PostgreSQL alike (D-P13).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('is_instance_admin', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  await database.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();

  await database.schema
    .createTable('spaces')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull().references('users.id'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  await database.schema
    .createTable('space_members')
    .addColumn('space_id', 'text', (column) => column.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('space_members_pk', ['space_id', 'user_id'])
    .execute();

  await database.schema
    .createTable('apps')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull().references('spaces.id'))
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('mode', 'text')
    .addColumn('file_root', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('latest_release_id', 'text')
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('apps_space').on('apps').columns(['space_id', 'kind']).execute();

  await database.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (column) => column.references('apps.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('prefix', 'text', (column) => column.notNull())
    .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();

  await database.schema
    .createTable('secrets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('ciphertext', 'text', (column) => column.notNull())
    .addColumn('mask', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('secrets_space_name', ['space_id', 'name'])
    .execute();

  await database.schema
    .createTable('model_connections')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull().references('spaces.id'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('base_url', 'text')
    .addColumn('settings', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await database.schema
    .createTable('model_connection_keys')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('connection_id', 'text', (column) => column.notNull().references('model_connections.id').onDelete('cascade'))
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('ciphertext', 'text', (column) => column.notNull())
    .addColumn('mask', 'text', (column) => column.notNull())
    .addColumn('active', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  // One active key per connection, enforced by the database itself (P-14.8).
  await sql`create unique index model_connection_keys_one_active on model_connection_keys (connection_id) where active = 1`.execute(
    database,
  );

  await database.schema
    .createTable('models')
    .addColumn('connection_id', 'text', (column) => column.notNull().references('model_connections.id').onDelete('cascade'))
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('context_window', 'integer')
    .addColumn('supports_thinking', 'integer', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('models_pk', ['connection_id', 'model_id'])
    .execute();

  await database.schema
    .createTable('resources')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('space_id', 'text', (column) => column.notNull().references('spaces.id'))
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('latest_version', 'integer', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('resources_space').on('resources').columns(['space_id', 'type']).execute();

  await database.schema
    .createTable('resource_versions')
    .addColumn('resource_id', 'text', (column) => column.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('content', 'text')
    .addColumn('storage_ref', 'text')
    .addColumn('content_hash', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('resource_versions_pk', ['resource_id', 'version'])
    .execute();

  await database.schema
    .createTable('app_drafts')
    .addColumn('app_id', 'text', (column) => column.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('config', 'text', (column) => column.notNull())
    .addColumn('schema_version', 'integer', (column) => column.notNull())
    .addColumn('revision', 'integer', (column) => column.notNull())
    .addColumn('updated_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await database.schema
    .createTable('app_releases')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('config_snapshot', 'text', (column) => column.notNull())
    .addColumn('content_hash', 'text', (column) => column.notNull())
    .addColumn('notes', 'text', (column) => column.notNull())
    .addColumn('interrupt_runs', 'integer', (column) => column.notNull())
    .addColumn('published_by', 'text', (column) => column.notNull())
    .addColumn('published_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('app_releases_version', ['app_id', 'version'])
    .execute();

  await database.schema
    .createTable('app_resource_refs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('app_id', 'text', (column) => column.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('release_id', 'text', (column) => column.references('app_releases.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (column) => column.notNull())
    .addColumn('resource_id', 'text', (column) => column.notNull())
    .addColumn('resource_version', 'integer')
    .execute();
  await database.schema.createIndex('app_resource_refs_resource').on('app_resource_refs').column('resource_id').execute();
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
