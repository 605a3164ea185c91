import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Queryable } from '../queryable.js';
import type { PlatformDatabase, ResourceRow, ResourceVersionRow } from '../schema.js';

/** A resource as the API shows it. */
export interface ResourceView {
  id: string;
  spaceId: string;
  type: ResourceRow['type'];
  name: string;
  description: string;
  state: 'active' | 'archived';
  latestVersion: number;
  updatedAt: string;
}

export function resourceView(row: ResourceRow): ResourceView {
  return {
    id: row.id,
    spaceId: row.space_id,
    type: row.type,
    name: row.name,
    description: row.description,
    state: row.state,
    latestVersion: row.latest_version,
    updatedAt: row.updated_at,
  };
}

/** SHA-256 of a canonical JSON text (keys sorted), the content hash of JSON versions. */
export function hashJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** JSON with object keys sorted, so equal content always hashes equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Appends an immutable version to a resource inside the caller's transaction: the next number
 * is taken from the row itself, so two concurrent uploads get two numbers (the primary key on
 * (resource_id, version) refuses a duplicate).
 */
export async function appendResourceVersion(
  transaction: Transaction<PlatformDatabase>,
  resource: ResourceRow,
  values: { content: unknown; storageRef: string | null; contentHash: string; createdBy: string; now: string },
): Promise<number> {
  const current = await transaction
    .selectFrom('resources')
    .select('latest_version')
    .where('id', '=', resource.id)
    .executeTakeFirstOrThrow();
  const version = current.latest_version + 1;
  await transaction
    .insertInto('resource_versions')
    .values({
      resource_id: resource.id,
      version,
      content: JSON.stringify(values.content),
      storage_ref: values.storageRef,
      content_hash: values.contentHash,
      created_by: values.createdBy,
      created_at: values.now,
    })
    .execute();
  await transaction
    .updateTable('resources')
    .set({ latest_version: version, updated_at: values.now })
    .where('id', '=', resource.id)
    .execute();
  return version;
}

/** Which apps (drafts) and releases reference a resource or connection: "who uses this". */
export async function readReferences(database: Queryable, targetId: string) {
  return database
    .selectFrom('app_resource_refs')
    .innerJoin('apps', 'apps.id', 'app_resource_refs.app_id')
    .leftJoin('app_releases', 'app_releases.id', 'app_resource_refs.release_id')
    .select([
      'apps.id as appId',
      'apps.name as appName',
      'app_resource_refs.release_id as releaseId',
      'app_releases.version as releaseVersion',
      'app_resource_refs.resource_version as resourceVersion',
    ])
    .where('app_resource_refs.resource_id', '=', targetId)
    .orderBy('apps.name')
    .execute();
}

/** The resource `resourceId` of the space, or undefined. */
export function findResource(database: Queryable, spaceId: string, resourceId: string) {
  return database
    .selectFrom('resources')
    .selectAll()
    .where('id', '=', resourceId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
}

/** The resource `resourceId`; throws when it does not exist. */
export function readResource(database: Queryable, resourceId: string): Promise<ResourceRow> {
  return database.selectFrom('resources').selectAll().where('id', '=', resourceId).executeTakeFirstOrThrow();
}

/** The space's resources (of one type when given), by name. */
export function listResources(database: Queryable, spaceId: string, type?: ResourceRow['type']): Promise<ResourceRow[]> {
  let query = database.selectFrom('resources').selectAll().where('space_id', '=', spaceId);
  if (type) query = query.where('type', '=', type);
  return query.orderBy('name').execute();
}

export async function insertResource(database: Queryable, row: ResourceRow): Promise<void> {
  await database.insertInto('resources').values(row).execute();
}

export async function updateResource(
  database: Queryable,
  resourceId: string,
  changes: Partial<Pick<ResourceRow, 'name' | 'description' | 'state'>> & { updated_at: string },
): Promise<void> {
  await database.updateTable('resources').set(changes).where('id', '=', resourceId).execute();
}

export async function deleteResource(database: Queryable, resourceId: string): Promise<void> {
  await database.deleteFrom('resources').where('id', '=', resourceId).execute();
}

/**
 * Whether an app or release references the resource or model connection (then it is archived,
 * never deleted): both kinds of target share the reference table.
 */
export async function isReferenced(
  database: Queryable,
  targetKind: 'resource' | 'model-connection',
  targetId: string,
): Promise<boolean> {
  const reference = await database
    .selectFrom('app_resource_refs')
    .select('id')
    .where('target_kind', '=', targetKind)
    .where('resource_id', '=', targetId)
    .executeTakeFirst();
  return reference !== undefined;
}

/** The resource's versions, newest first. */
export function listResourceVersions(database: Queryable, resourceId: string): Promise<ResourceVersionRow[]> {
  return database
    .selectFrom('resource_versions')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .orderBy('version', 'desc')
    .execute();
}

/** One version of the resource, or undefined. */
export function findResourceVersion(database: Queryable, resourceId: string, version: number) {
  return database
    .selectFrom('resource_versions')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** Each binding's resource (of the space) at its newest version, as a release pins it. */
export async function pinResources(
  database: Queryable,
  spaceId: string,
  bindings: Record<string, { resourceId: string }>,
): Promise<Record<string, { resourceId: string; version: number }>> {
  const pinned: Record<string, { resourceId: string; version: number }> = {};
  for (const [name, binding] of Object.entries(bindings)) {
    const row = await database
      .selectFrom('resources')
      .select(['id', 'latest_version'])
      .where('id', '=', binding.resourceId)
      .where('space_id', '=', spaceId)
      .executeTakeFirstOrThrow();
    pinned[name] = { resourceId: row.id, version: row.latest_version };
  }
  return pinned;
}
