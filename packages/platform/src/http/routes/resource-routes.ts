import { z } from '@hono/zod-openapi';
import {
  addContentVersion,
  addSkillVersion,
  assertResourceOpen,
  changeResource,
  createResource,
  listSpaceResources,
  removeResource,
  resourceReferences,
  resourceVersion,
  resourceVersions,
  resourceView,
} from '../../application/resources/resource-service.js';
import { builtInTools, contentSchemaNames, resourceTypes } from '../../domain/resource-content.js';
import { ApiError } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, jsonBody, jsonResponse } from '../openapi.js';
import {
  createBody,
  loadResource,
  parseContent,
  readPackage,
  referenceSchema,
  resourceParameters,
  resourceResult,
  resourceSchema,
  spaceParameters,
  versionBody,
  versionSchema,
} from './resource-request.js';

export { loadResource } from './resource-request.js';

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
      operationId: 'listResources',
      tags: ['Resources'],
      summary: 'List resources',
      description: 'List shared resources, optionally of one type.',
      request: { params: spaceParameters, query: z.object({ type: z.enum(resourceTypes).optional() }) },
      responses: { 200: jsonResponse('Resources.', z.object({ resources: z.array(resourceSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'resources.read');
      return c.json({ resources: await listSpaceResources(c.get('services'), space.id, c.req.valid('query').type) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources',
      operationId: 'createResource',
      tags: ['Resources'],
      summary: 'Create a resource',
      errors: { 422: ['egress-denied', 'literal-credential'] },
      description: 'Create a resource; JSON types take their first version from `content`, skills get theirs by upload.',
      request: { params: spaceParameters, body: jsonBody(createBody) },
      responses: { 201: jsonResponse('Created.', resourceResult) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'resources.manage');
      const body = c.req.valid('json');
      const content = body.type === 'skill' ? undefined : parseContent(c, body.type, body.content);
      const resource = await createResource(
        c.get('services'),
        space.id,
        currentActor(c),
        { type: body.type, name: body.name, description: body.description, content },
        body.content !== undefined,
      );
      return c.json({ resource }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}',
      operationId: 'getResource',
      tags: ['Resources'],
      summary: 'Read a resource',
      description: 'Read a resource.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('The resource.', resourceResult) },
    }),
    async (c) => {
      return c.json({ resource: resourceView(await loadResource(c, 'resources.read')) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/resources/{resourceId}',
      operationId: 'updateResource',
      tags: ['Resources'],
      summary: 'Change a resource',
      errors: { 409: ['name-fixed'] },
      description: 'Rename, describe, archive or restore a resource (content changes are new versions).',
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
      const row = await loadResource(c, 'resources.manage');
      const body = c.req.valid('json');
      return c.json({ resource: await changeResource(c.get('services'), row, body) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/resources/{resourceId}',
      operationId: 'deleteResource',
      tags: ['Resources'],
      summary: 'Delete or archive a resource',
      description: 'Delete a resource; one that an app or release references is archived instead (`archived: true`).',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('Deleted or archived.', z.object({ archived: z.boolean() })) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.manage');
      return c.json({ archived: await removeResource(c.get('services'), row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources/{resourceId}/versions',
      operationId: 'createResourceVersion',
      tags: ['Resources'],
      summary: 'Add a resource version',
      errors: {
        400: ['package-required'],
        409: ['resource-archived'],
        422: ['egress-denied', 'literal-credential', 'skill-name-mismatch'],
      },
      description:
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
      const row = await loadResource(c, 'resources.manage');
      assertResourceOpen(row);
      const services = c.get('services');
      const body = (c.req.valid('json') ?? {}) as z.infer<typeof versionBody>;
      const actor = currentActor(c);
      if (row.type === 'skill') return c.json(await addSkillVersion(services, row, actor, await readPackage(c, body.files)), 201);
      if (body.files) throw new ApiError(400, 'invalid-request', 'Only skills take files.');
      return c.json(await addContentVersion(services, row, actor, parseContent(c, row.type, body.content)), 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/versions',
      operationId: 'listResourceVersions',
      tags: ['Resources'],
      summary: 'List resource versions',
      description: 'Version history, newest first.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('Versions.', z.object({ versions: z.array(versionSchema) })) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.read');
      return c.json({ versions: await resourceVersions(c.get('services'), row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/versions/{version}',
      operationId: 'getResourceVersion',
      tags: ['Resources'],
      summary: 'Read a resource version',
      description: 'One version.',
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
      const row = await loadResource(c, 'resources.read');
      const { version } = c.req.valid('param');
      return c.json({ version: await resourceVersion(c.get('services'), row, version) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/references',
      operationId: 'listResourceReferences',
      tags: ['Resources'],
      summary: 'List what uses a resource',
      description: 'Which apps (drafts) and releases use this resource.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('References.', z.object({ references: z.array(referenceSchema) })) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.read');
      return c.json({ references: await resourceReferences(c.get('services'), row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/built-in-tools',
      operationId: 'listBuiltInTools',
      tags: ['Resources'],
      summary: 'List built-in tools',
      description: 'The catalogue of built-in tools.',
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
