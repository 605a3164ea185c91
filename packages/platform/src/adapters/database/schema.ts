import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { RunSideTables } from './schema-runs.js';

export type * from './schema-runs.js';

/**
 * The platform tables (PLATFORM.md §4.3) as Kysely sees them. The same types serve SQLite and
 * PostgreSQL: times are ISO-8601 text, booleans are 0/1 integers and JSON is text, so that a row
 * reads the same on both dialects and no code branches on the database.
 */
export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  password_hash: string;
  is_instance_admin: number;
  status: 'active' | 'disabled';
  created_at: string;
}

/** Cookie logins; `id` is the SHA-256 of the cookie token, never the token itself. */
export interface WebSessionsTable {
  id: string;
  user_id: string;
  expires_at: string;
  created_at: string;
  ip: string | null;
  user_agent: string | null;
}

/** The tenant (D-P12). */
export interface SpacesTable {
  id: string;
  name: string;
  state: 'active' | 'deleting';
  created_by: string;
  created_at: string;
  /** 1 for the seeded Demo space (migration 0012), 0 otherwise; left out on insert. */
  demo: ColumnType<number, number | undefined, number>;
}

/** Membership and role per space (D-P6). */
export interface SpaceMembersTable {
  space_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'editor' | 'viewer';
  created_at: string;
}

/** Space keys (`app_id` null) and app keys; only a hash of the secret is kept. */
export interface ApiKeysTable {
  id: string;
  space_id: string;
  app_id: string | null;
  name: string;
  prefix: string;
  secret_hash: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Write-only values (MCP headers, tool credentials), encrypted with the instance key. */
export interface SecretsTable {
  id: string;
  space_id: string;
  name: string;
  ciphertext: string;
  mask: string;
  created_by: string;
  updated_at: string;
}

/** A model endpoint shared by the space's apps (P-5.2). */
export interface ModelConnectionsTable {
  id: string;
  space_id: string;
  name: string;
  provider: 'openai-compatible' | 'anthropic' | 'offline-demo';
  base_url: string | null;
  settings: string;
  state: 'active' | 'archived';
  created_by: string;
  updated_at: string;
}

/** Labelled keys of a connection, one active at a time (P-14.8). */
export interface ModelConnectionKeysTable {
  id: string;
  connection_id: string;
  label: string;
  ciphertext: string;
  mask: string;
  active: number;
  created_at: string;
}

/** The model catalogue of a connection (模型目录). */
export interface ModelsTable {
  connection_id: string;
  model_id: string;
  context_window: number | null;
  supports_thinking: number;
  enabled: number;
}

/** Prompts, skills, tools, MCP servers and hooks shared inside a space (P-5). */
export interface ResourcesTable {
  id: string;
  space_id: string;
  type: 'prompt' | 'skill' | 'tool' | 'mcp-server' | 'hook' | 'remote-agent';
  name: string;
  description: string;
  state: 'active' | 'archived';
  latest_version: number;
  created_by: string;
  updated_at: string;
}

/** Immutable versions of a resource; skill packages are stored by content hash. */
export interface ResourceVersionsTable {
  resource_id: string;
  version: number;
  content: string | null;
  storage_ref: string | null;
  content_hash: string;
  created_by: string;
  created_at: string;
}

/** Agent, workflow and router apps (P-3, issue 33); an agent's `mode` never changes (P-3.5). */
export interface AppsTable {
  id: string;
  space_id: string;
  kind: 'agent' | 'workflow' | 'router';
  name: string;
  description: string;
  mode: 'react' | 'plan-executor' | null;
  file_root: string;
  state: 'active' | 'deleting';
  latest_release_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** One draft per app; `revision` is the optimistic-concurrency token (`If-Match`). */
export interface AppDraftsTable {
  app_id: string;
  config: string;
  schema_version: number;
  revision: number;
  updated_by: string;
  updated_at: string;
}

/** Immutable release snapshots (P-6, NOT-8). */
export interface AppReleasesTable {
  id: string;
  app_id: string;
  version: number;
  kind: 'release' | 'debug';
  config_snapshot: string;
  content_hash: string;
  notes: string;
  interrupt_runs: number;
  published_by: string;
  published_at: string;
  /** The draft the release was published from (JSON), for a restore; null on debug and older releases. */
  draft_config: string | null;
}

/** Which app (draft: `release_id` null) or release uses which resource version. */
export interface AppResourceRefsTable {
  id: string;
  app_id: string;
  release_id: string | null;
  /** A shared resource, a model connection, or (for workflows) an agent app with `resource_version` = its pinned release version. */
  target_kind: 'resource' | 'model-connection' | 'agent-app';
  resource_id: string;
  resource_version: number | null;
}

/** A conversation with a router app: the dialogue state the platform holds for it (issue 33). */
export interface RouterSessionsTable {
  id: string;
  app_id: string;
  space_id: string;
  created_by: string;
  /** JSON `RouterSessionState`: the dialogue state and the run the router started, if any. */
  state: string;
  /** Turns taken; a turn saves only over the count it read (concurrent turns conflict). */
  turns: number;
  created_at: string;
  updated_at: string;
}

/** One turn of a router session: the message and the turn as the API answered it (JSON). */
export interface RouterTurnsTable {
  session_id: string;
  turn: number;
  text: string;
  result: string;
  created_at: string;
}

/** Every table of the platform database. */
export interface PlatformDatabase extends RunSideTables {
  users: UsersTable;
  web_sessions: WebSessionsTable;
  spaces: SpacesTable;
  space_members: SpaceMembersTable;
  api_keys: ApiKeysTable;
  secrets: SecretsTable;
  model_connections: ModelConnectionsTable;
  model_connection_keys: ModelConnectionKeysTable;
  models: ModelsTable;
  resources: ResourcesTable;
  resource_versions: ResourceVersionsTable;
  apps: AppsTable;
  app_drafts: AppDraftsTable;
  app_releases: AppReleasesTable;
  app_resource_refs: AppResourceRefsTable;
  router_sessions: RouterSessionsTable;
  router_turns: RouterTurnsTable;
}

export type UserRow = Selectable<UsersTable>;
export type SpaceRow = Selectable<SpacesTable>;
export type AppRow = Selectable<AppsTable>;
export type ResourceRow = Selectable<ResourcesTable>;
export type ResourceVersionRow = Selectable<ResourceVersionsTable>;
export type ModelConnectionRow = Selectable<ModelConnectionsTable>;
export type AppReleaseRow = Selectable<AppReleasesTable>;
export type NewAppReleaseRow = Insertable<AppReleasesTable>;
export type RouterSessionRow = Selectable<RouterSessionsTable>;
