import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Selectable } from 'kysely';
import { newId } from '../../adapters/crypto/index.js';
import type { ResourceRow } from '../../adapters/database/index.js';
import {
  appendResourceVersion,
  hashJson,
  readReferences,
  resourceView,
} from '../../adapters/database/repositories/resource-repository.js';
import type { ResourceVersionsTable } from '../../adapters/database/schema.js';
import { InvalidPackageError, type PackageFile, readZipPackage } from '../../adapters/skills/read-zip.js';
import { storeSkillPackage } from '../../adapters/skills/store-skill-package.js';
import { hideLiteralCredentials, literalCredentialIssues } from '../../domain/credential-headers.js';
import { builtInTools, contentSchemaNames, contentSchemaOf, resourceTypes } from '../../domain/resource-content.js';
import { ApiError, notFound } from '../api-error.js';
import { currentActor, requirePrincipal } from '../authentication.js';
import { authorizeSpace, type SpaceAction } from '../authorization.js';
import { refuseDeniedUrl, resourceUrlField } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import type { PlatformEnvironment } from '../services.js';

const resourceSchema = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    type: z.enum(resourceTypes),
    name: z.string(),
    description: z.string(),
    state: z.enum(['active', 'archived']),
    latestVersion: z.number(),
    updatedAt: z.string(),
  })
  .openapi('Resource');
const versionSchema = z
  .object({
    version: z.number(),
    content: z.unknown(),
    storageRef: z.string().nullable(),
    contentHash: z.string(),
    createdAt: z.string(),
  })
  .openapi('ResourceVersion');
const referenceSchema = z
  .object({
    appId: z.string(),
    appName: z.string(),
    releaseId: z.string().nullable(),
    releaseVersion: z.number().nullable(),
    resourceVersion: z.number().nullable(),
  })
  .openapi('ResourceReference');
const packageFileSchema = z.strictObject({ path: z.string().min(1).max(500), contentBase64: z.string().max(70_000_000) });
const versionBody = z
  .strictObject({ content: z.unknown().optional(), files: z.array(packageFileSchema).max(1000).optional() })
  .openapi('NewResourceVersion', {
    description:
      'JSON content for prompts, tools, MCP servers and hooks; `files` (a folder) for skills. Skills may also be sent as an application/zip body.',
  });
const createBody = z
  .strictObject({
    type: z.enum(resourceTypes),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    content: z.unknown().optional(),
  })
  .openapi('CreateResource');
const spaceParameters = z.object({ spaceId: idParameter('spaceId') });
const resourceParameters = z.object({ spaceId: idParameter('spaceId'), resourceId: idParameter('resourceId') });
const resourceResult = z.object({ resource: resourceSchema });

/** A resource of the space, checked against `action`; 404 for ids of other spaces. */
export async function loadResource(
  c: Context<PlatformEnvironment>,
  spaceId: string,
  resourceId: string,
  action: SpaceAction,
): Promise<ResourceRow> {
  const { space } = await authorizeSpace(c, spaceId, action);
  const row = await c
    .get('services')
    .database.selectFrom('resources')
    .selectAll()
    .where('id', '=', resourceId)
    .where('space_id', '=', space.id)
    .executeTakeFirst();
  if (!row) throw notFound('The resource');
  return row;
}

/**
 * Validates JSON content for its type; stdio MCP servers run host processes, so only instance
 * admins may define them; an outbound URL the egress policy refuses is a 422 `egress-denied` (P-15.1).
 */
function parseContent(c: Context<PlatformEnvironment>, type: Exclude<ResourceRow['type'], 'skill'>, content: unknown): unknown {
  const result = contentSchemaOf[type].safeParse(content);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: ['content', ...issue.path.map(String)].join('.'),
      code: issue.code,
      message: issue.message,
    }));
    throw new ApiError(400, 'invalid-request', `The ${type} content does not match its schema.`, { issues });
  }
  const credentials = literalCredentialIssues(type, result.data);
  if (credentials.length > 0) {
    throw new ApiError(422, 'literal-credential', 'Credentials go in space secrets, not in literal values (P-15.4).', {
      issues: credentials,
    });
  }
  const principal = requirePrincipal(c);
  if (
    type === 'mcp-server' &&
    (result.data as { transport: string }).transport === 'stdio' &&
    !(principal.kind === 'user' && principal.isInstanceAdmin)
  ) {
    throw new ApiError(
      403,
      'stdio-mcp-admin-only',
      'Only instance administrators may add stdio MCP servers: they run processes on the host.',
    );
  }
  const outbound = resourceUrlField(type, result.data);
  if (outbound) refuseDeniedUrl(c.get('services'), outbound.field, outbound.url);
  return result.data;
}

/** A stored version as the API shows it: literal credentials of old versions are hidden (P-15.4). */
function versionView(resource: ResourceRow, row: Selectable<ResourceVersionsTable>): z.infer<typeof versionSchema> {
  const content: unknown = row.content ? JSON.parse(row.content) : null;
  return {
    version: row.version,
    content: hideLiteralCredentials(resource.type, content),
    storageRef: row.storage_ref,
    contentHash: row.content_hash,
    createdAt: row.created_at,
  };
}

/** Reads a skill package from a zip body or a JSON folder (`files`). */
async function readPackage(
  c: Context<PlatformEnvironment>,
  files: z.infer<typeof packageFileSchema>[] | undefined,
): Promise<PackageFile[]> {
  const contentType = c.req.header('content-type') ?? '';
  try {
    if (/^application\/(zip|x-zip-compressed)\b/i.test(contentType))
      return await readZipPackage(new Uint8Array(await c.req.arrayBuffer()));
  } catch (error) {
    if (error instanceof InvalidPackageError) throw new ApiError(422, error.code, error.message, { problems: error.problems });
    throw error;
  }
  if (!files || files.length === 0)
    throw new ApiError(400, 'package-required', 'Send the skill as an application/zip body or as `files`.');
  return files.map((file) => ({ path: file.path, content: new Uint8Array(Buffer.from(file.contentBase64, 'base64')) }));
}

/** `/spaces/:spaceId/resources`: prompts, skills, tools, MCP servers and hooks, each with immutable versions (P-5). */
export function resourceRoutes() {
  const app = createSubApp();
  // A resource's `content` is typed per resource type; the document names each type's schema so
  // that clients (the console's generated types) can build and read content without guessing.
  for (const [name, schema] of Object.entries(contentSchemaNames)) app.openAPIRegistry.register(name, schema);

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources',
      summary: 'List shared resources, optionally of one type.',
      request: { params: spaceParameters, query: z.object({ type: z.enum(resourceTypes).optional() }) },
      responses: { 200: jsonResponse('Resources.', z.object({ resources: z.array(resourceSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'resources.read');
      const { type } = c.req.valid('query');
      let query = c.get('services').database.selectFrom('resources').selectAll().where('space_id', '=', space.id);
      if (type) query = query.where('type', '=', type);
      const rows = await query.orderBy('name').execute();
      return c.json({ resources: rows.map(resourceView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources',
      summary: 'Create a resource; JSON types take their first version from `content`, skills get theirs by upload.',
      request: { params: spaceParameters, body: jsonBody(createBody) },
      responses: { 201: jsonResponse('Created.', resourceResult) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'resources.manage');
      const body = c.req.valid('json');
      const content = body.type === 'skill' ? undefined : parseContent(c, body.type, body.content);
      if (body.type === 'skill' && body.content !== undefined)
        throw new ApiError(400, 'invalid-request', 'Skills are uploaded through POST …/versions, not as content.');
      if (body.type === 'skill' && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(body.name)) {
        throw new ApiError(
          400,
          'invalid-request',
          'A skill resource is named like its skill: lowercase letters, digits and single hyphens.',
        );
      }
      if (body.type === 'tool' && !/^[A-Za-z0-9_-]{1,64}$/.test(body.name)) {
        throw new ApiError(
          400,
          'invalid-request',
          'A tool resource is named like the tool the model calls: letters, digits, _ and -, at most 64.',
        );
      }
      const { database, now } = c.get('services');
      const at = now().toISOString();
      const row: ResourceRow = {
        id: newId('res'),
        space_id: space.id,
        type: body.type,
        name: body.name,
        description: body.description,
        state: 'active',
        latest_version: 0,
        created_by: currentActor(c),
        updated_at: at,
      };
      const created = await database.transaction().execute(async (transaction) => {
        await transaction.insertInto('resources').values(row).execute();
        if (content !== undefined) {
          await appendResourceVersion(transaction, row, {
            content,
            storageRef: null,
            contentHash: hashJson(content),
            createdBy: row.created_by,
            now: at,
          });
        }
        return transaction.selectFrom('resources').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      });
      return c.json({ resource: resourceView(created) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}',
      summary: 'Read a resource.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('The resource.', resourceResult) },
    }),
    async (c) => {
      const { spaceId, resourceId } = c.req.valid('param');
      return c.json({ resource: resourceView(await loadResource(c, spaceId, resourceId, 'resources.read')) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/resources/{resourceId}',
      summary: 'Rename, describe, archive or restore a resource (content changes are new versions).',
      request: {
        params: resourceParameters,
        body: jsonBody(
          z
            .strictObject({
              name: z.string().trim().min(1).max(200).optional(),
              description: z.string().max(2000).optional(),
              state: z.enum(['active', 'archived']).optional(),
            })
            .openapi('UpdateResource'),
        ),
      },
      responses: { 200: jsonResponse('Updated.', resourceResult) },
    }),
    async (c) => {
      const { spaceId, resourceId } = c.req.valid('param');
      const row = await loadResource(c, spaceId, resourceId, 'resources.manage');
      const body = c.req.valid('json');
      if ((row.type === 'skill' || row.type === 'tool') && body.name !== undefined && body.name !== row.name)
        throw new ApiError(409, 'name-fixed', 'Skill and tool resources keep the name the model knows them by.');
      const { database, now } = c.get('services');
      const changes = {
        updated_at: now().toISOString(),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.state !== undefined ? { state: body.state } : {}),
      };
      await database.updateTable('resources').set(changes).where('id', '=', row.id).execute();
      return c.json({ resource: resourceView({ ...row, ...changes }) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/resources/{resourceId}',
      summary: 'Delete a resource; one that an app or release references is archived instead (`archived: true`).',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('Deleted or archived.', z.object({ archived: z.boolean() })) },
    }),
    async (c) => {
      const { spaceId, resourceId } = c.req.valid('param');
      const row = await loadResource(c, spaceId, resourceId, 'resources.manage');
      const { database, now } = c.get('services');
      const archived = await database.transaction().execute(async (transaction) => {
        const reference = await transaction
          .selectFrom('app_resource_refs')
          .select('id')
          .where('target_kind', '=', 'resource')
          .where('resource_id', '=', row.id)
          .executeTakeFirst();
        if (reference) {
          await transaction
            .updateTable('resources')
            .set({ state: 'archived', updated_at: now().toISOString() })
            .where('id', '=', row.id)
            .execute();
          return true;
        }
        await transaction.deleteFrom('resources').where('id', '=', row.id).execute();
        return false;
      });
      return c.json({ archived }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources/{resourceId}/versions',
      summary:
        'Add an immutable version: JSON content, or for skills a zip (application/zip) or folder (`files`), validated with the SDK.',
      request: {
        params: resourceParameters,
        body: {
          required: false,
          content: {
            'application/json': { schema: versionBody },
            'application/zip': { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
      },
      responses: { 201: jsonResponse('Added.', z.object({ resource: resourceSchema, version: versionSchema })) },
    }),
    async (c) => {
      const { spaceId, resourceId } = c.req.valid('param');
      const row = await loadResource(c, spaceId, resourceId, 'resources.manage');
      if (row.state === 'archived') throw new ApiError(409, 'resource-archived', 'Restore the resource before adding versions.');
      const { database, now, config } = c.get('services');
      const body = (c.req.valid('json') ?? {}) as z.infer<typeof versionBody>;
      const at = now().toISOString();
      let content: unknown;
      let storageRef: string | null = null;
      let contentHash: string;
      if (row.type === 'skill') {
        const files = await readPackage(c, body.files);
        try {
          const stored = await storeSkillPackage(config.dataDirectory, files, row.name);
          if (stored.name !== row.name)
            throw new ApiError(
              422,
              'skill-name-mismatch',
              `The package holds skill "${stored.name}", this resource is "${row.name}".`,
            );
          content = { name: stored.name, description: stored.description, fileCount: stored.fileCount };
          storageRef = stored.storageRef;
          contentHash = stored.contentHash;
        } catch (error) {
          if (error instanceof InvalidPackageError)
            throw new ApiError(422, error.code, error.message, { problems: error.problems });
          throw error;
        }
      } else {
        if (body.files) throw new ApiError(400, 'invalid-request', 'Only skills take files.');
        content = parseContent(c, row.type, body.content);
        contentHash = hashJson(content);
      }
      const actor = currentActor(c);
      const { version, updated } = await database.transaction().execute(async (transaction) => {
        const number = await appendResourceVersion(transaction, row, {
          content,
          storageRef,
          contentHash,
          createdBy: actor,
          now: at,
        });
        return {
          version: number,
          updated: await transaction.selectFrom('resources').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow(),
        };
      });
      return c.json(
        { resource: resourceView(updated), version: { version, content, storageRef, contentHash, createdAt: at } },
        201,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/versions',
      summary: 'Version history, newest first.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('Versions.', z.object({ versions: z.array(versionSchema) })) },
    }),
    async (c) => {
      const { spaceId, resourceId } = c.req.valid('param');
      const row = await loadResource(c, spaceId, resourceId, 'resources.read');
      const versions = await c
        .get('services')
        .database.selectFrom('resource_versions')
        .selectAll()
        .where('resource_id', '=', row.id)
        .orderBy('version', 'desc')
        .execute();
      return c.json(
        {
          versions: versions.map((version) => versionView(row, version)),
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/versions/{version}',
      summary: 'One version.',
      request: {
        params: resourceParameters.extend({
          version: z.coerce
            .number()
            .int()
            .positive()
            .openapi({ param: { name: 'version', in: 'path' } }),
        }),
      },
      responses: { 200: jsonResponse('The version.', z.object({ version: versionSchema })) },
    }),
    async (c) => {
      const { spaceId, resourceId, version } = c.req.valid('param');
      const row = await loadResource(c, spaceId, resourceId, 'resources.read');
      const found = await c
        .get('services')
        .database.selectFrom('resource_versions')
        .selectAll()
        .where('resource_id', '=', row.id)
        .where('version', '=', version)
        .executeTakeFirst();
      if (!found) throw notFound('The version');
      return c.json(
        {
          version: versionView(row, found),
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/references',
      summary: 'Which apps (drafts) and releases use this resource.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('References.', z.object({ references: z.array(referenceSchema) })) },
    }),
    async (c) => {
      const { spaceId, resourceId } = c.req.valid('param');
      const row = await loadResource(c, spaceId, resourceId, 'resources.read');
      return c.json({ references: await readReferences(c.get('services').database, row.id) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/built-in-tools',
      summary: 'The catalogue of built-in tools.',
      request: { params: spaceParameters },
      responses: {
        200: jsonResponse(
          'Tools.',
          z.object({ tools: z.array(z.object({ name: z.string(), tools: z.array(z.string()), description: z.string() })) }),
        ),
      },
    }),
    async (c) => {
      await authorizeSpace(c, c.req.valid('param').spaceId, 'resources.read');
      return c.json({ tools: builtInTools.map((tool) => ({ ...tool, tools: [...tool.tools] })) }, 200);
    },
  );

  return app;
}
