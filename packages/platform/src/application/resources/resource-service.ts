import { newId } from '../../adapters/crypto/index.js';
import {
  appendResourceVersion,
  deleteResource,
  findResource,
  findResourceVersion,
  hashJson,
  insertResource,
  listResources,
  listResourceVersions,
  readReferences,
  readResource,
  resourceView,
  updateResource,
} from '../../adapters/database/repositories/resource-repository.js';
import type { ResourceRow, ResourceVersionRow } from '../../adapters/database/schema.js';
import { InvalidPackageError, type PackageFile } from '../../adapters/skills/read-zip.js';
import { storeSkillPackage } from '../../adapters/skills/store-skill-package.js';
import { hideLiteralCredentials } from '../../domain/credential-headers.js';
import { ConflictError, InvalidRequestError, notFoundError, ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { deleteOrArchive } from '../delete-or-archive.js';

/** What the resource use cases work with. */
export type ResourceContext = Pick<PlatformContext, 'database' | 'config' | 'now'>;

/** A stored version as the API shows it: literal credentials of old versions are hidden (P-15.4). */
export function versionView(resource: ResourceRow, row: ResourceVersionRow) {
  const content: unknown = row.content ? JSON.parse(row.content) : null;
  return {
    version: row.version,
    content: hideLiteralCredentials(resource.type, content),
    storageRef: row.storage_ref,
    contentHash: row.content_hash,
    createdAt: row.created_at,
  };
}

/** The resource `resourceId` of the space; `not-found` otherwise (never says whether it exists elsewhere). */
export async function resourceOfSpace(context: Pick<PlatformContext, 'database'>, spaceId: string, resourceId: string) {
  const row = await findResource(context.database, spaceId, resourceId);
  if (!row) throw notFoundError('The resource');
  return row;
}

/** The space's resources (of one type when given), as the API shows them. */
export async function listSpaceResources(
  context: Pick<PlatformContext, 'database'>,
  spaceId: string,
  type?: ResourceRow['type'],
) {
  return (await listResources(context.database, spaceId, type)).map(resourceView);
}

/**
 * Creates a resource; a JSON type takes its first version from `content` (already validated for
 * its type), a skill gets its versions by upload. Skills are named like their skill, tools like
 * the tool the model calls.
 */
export async function createResource(
  context: ResourceContext,
  spaceId: string,
  actor: string,
  input: { type: ResourceRow['type']; name: string; description: string; content: unknown },
  sentContent: boolean,
) {
  if (input.type === 'skill' && sentContent)
    throw new InvalidRequestError('invalid-request', 'Skills are uploaded through POST …/versions, not as content.');
  if (input.type === 'skill' && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(input.name))
    throw new InvalidRequestError(
      'invalid-request',
      'A skill resource is named like its skill: lowercase letters, digits and single hyphens.',
    );
  if ((input.type === 'tool' || input.type === 'remote-agent') && !/^[A-Za-z0-9_-]{1,64}$/.test(input.name))
    throw new InvalidRequestError(
      'invalid-request',
      `A ${input.type} resource is named like the tool the model calls: letters, digits, _ and -, at most 64.`,
    );
  const at = context.now().toISOString();
  const row: ResourceRow = {
    id: newId('res'),
    space_id: spaceId,
    type: input.type,
    name: input.name,
    description: input.description,
    state: 'active',
    latest_version: 0,
    created_by: actor,
    updated_at: at,
  };
  const created = await context.database.transaction().execute(async (transaction) => {
    await insertResource(transaction, row);
    if (input.content !== undefined) {
      const { content } = input;
      await appendResourceVersion(transaction, row, {
        content,
        storageRef: null,
        contentHash: hashJson(content),
        createdBy: row.created_by,
        now: at,
      });
    }
    return readResource(transaction, row.id);
  });
  return resourceView(created);
}

/** Renames, describes, archives or restores a resource; skills, tools and remote agents keep their name (a conflict `name-fixed`). */
export async function changeResource(
  context: ResourceContext,
  row: ResourceRow,
  body: { name?: string | undefined; description?: string | undefined; state?: 'active' | 'archived' | undefined },
) {
  if (
    (row.type === 'skill' || row.type === 'tool' || row.type === 'remote-agent') &&
    body.name !== undefined &&
    body.name !== row.name
  )
    throw new ConflictError('name-fixed', 'Skill, tool and remote-agent resources keep the name the model knows them by.');
  const changes = {
    updated_at: context.now().toISOString(),
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.state !== undefined ? { state: body.state } : {}),
  };
  await updateResource(context.database, row.id, changes);
  return resourceView({ ...row, ...changes });
}

/** Deletes a resource; one that an app or release references is archived instead (answers true). */
export function removeResource(context: ResourceContext, row: ResourceRow): Promise<boolean> {
  return deleteOrArchive(context, 'resource', row.id, updateResource, deleteResource);
}

/** Refuses new versions of an archived resource (a conflict `resource-archived`). */
export function assertResourceOpen(row: ResourceRow): void {
  if (row.state === 'archived') throw new ConflictError('resource-archived', 'Restore the resource before adding versions.');
}

/** Stores a skill package (validated with the SDK) as the next version of a skill resource. */
export async function addSkillVersion(context: ResourceContext, row: ResourceRow, actor: string, files: PackageFile[]) {
  const at = context.now().toISOString();
  try {
    const stored = await storeSkillPackage(context.config.dataDirectory, files, row.name);
    if (stored.name !== row.name)
      throw new ValidationError(
        'skill-name-mismatch',
        `The package holds skill "${stored.name}", this resource is "${row.name}".`,
      );
    const content = { name: stored.name, description: stored.description, fileCount: stored.fileCount };
    return await appendVersion(context, row, actor, at, content, stored.storageRef, stored.contentHash);
  } catch (error) {
    if (error instanceof InvalidPackageError) throw new ValidationError(error.code, error.message, { problems: error.problems });
    throw error;
  }
}

/** Stores JSON content (already validated for its type) as the next version of a resource. */
export function addContentVersion(context: ResourceContext, row: ResourceRow, actor: string, content: unknown) {
  return appendVersion(context, row, actor, context.now().toISOString(), content, null, hashJson(content));
}

async function appendVersion(
  context: ResourceContext,
  row: ResourceRow,
  actor: string,
  at: string,
  content: unknown,
  storageRef: string | null,
  contentHash: string,
) {
  const { version, updated } = await context.database.transaction().execute(async (transaction) => {
    const number = await appendResourceVersion(transaction, row, { content, storageRef, contentHash, createdBy: actor, now: at });
    return { version: number, updated: await readResource(transaction, row.id) };
  });
  return { resource: resourceView(updated), version: { version, content, storageRef, contentHash, createdAt: at } };
}

/** The resource's versions, newest first, as the API shows them. */
export async function resourceVersions(context: Pick<PlatformContext, 'database'>, row: ResourceRow) {
  return (await listResourceVersions(context.database, row.id)).map((version) => versionView(row, version));
}

/** One version of the resource; `not-found` when it has no such version. */
export async function resourceVersion(context: Pick<PlatformContext, 'database'>, row: ResourceRow, version: number) {
  const found = await findResourceVersion(context.database, row.id, version);
  if (!found) throw notFoundError('The version');
  return versionView(row, found);
}

/** Which apps (drafts) and releases use the resource. */
export function resourceReferences(context: Pick<PlatformContext, 'database'>, row: ResourceRow) {
  return readReferences(context.database, row.id);
}

export { resourceView } from '../../adapters/database/repositories/resource-repository.js';
