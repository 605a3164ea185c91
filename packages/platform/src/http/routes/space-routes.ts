import { z } from '@hono/zod-openapi';
import type { SpaceRow } from '../../adapters/database/index.js';
import { createSpace, deleteEmptySpace, renameSpaceTo, spacesOfUser } from '../../application/spaces/space-service.js';
import { requireUser } from '../authentication.js';
import { authorizeSpace, spaceRoles } from '../authorization.js';
import { apiRoute, createSubApp, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { spaceParameters } from './space-list-route.js';

const roleSchema = z.enum(spaceRoles as ['viewer', 'editor', 'admin', 'owner']);
const spaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    state: z.enum(['active', 'deleting']),
    createdAt: z.string(),
    role: roleSchema.optional(),
  })
  .openapi('Space');
const spaceBody = z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('SpaceInput');

function spaceView(row: SpaceRow, role?: z.infer<typeof roleSchema>): z.infer<typeof spaceSchema> {
  return { id: row.id, name: row.name, state: row.state, createdAt: row.created_at, ...(role ? { role } : {}) };
}

/** `/spaces`: the tenants (D-P12). Any user may create one and becomes its owner. */
export function spaceRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces',
      operationId: 'listSpaces',
      tags: ['Spaces'],
      summary: 'List spaces',
      description: 'The spaces the user is a member of.',
      responses: { 200: jsonResponse('Spaces.', z.object({ spaces: z.array(spaceSchema) })) },
    }),
    async (c) => {
      const user = requireUser(c);
      const rows = await spacesOfUser(c.get('services'), user.userId);
      return c.json({ spaces: rows.map((row) => spaceView(row, row.role)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces',
      operationId: 'createSpace',
      tags: ['Spaces'],
      summary: 'Create a space',
      description: 'Create a space; the caller becomes its owner.',
      request: { body: jsonBody(spaceBody) },
      responses: { 201: jsonResponse('Created.', z.object({ space: spaceSchema })) },
    }),
    async (c) => {
      const user = requireUser(c);
      const row = await createSpace(c.get('services'), user.userId, c.req.valid('json').name);
      return c.json({ space: spaceView(row, 'owner') }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}',
      operationId: 'getSpace',
      tags: ['Spaces'],
      summary: 'Read a space',
      description: 'Read a space.',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('The space.', z.object({ space: spaceSchema })) },
    }),
    async (c) => {
      const { space, role } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space.read');
      return c.json({ space: spaceView(space, role) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}',
      operationId: 'updateSpace',
      tags: ['Spaces'],
      summary: 'Rename a space',
      description: 'Rename a space (admins).',
      request: { params: spaceParameters, body: jsonBody(spaceBody) },
      responses: { 200: jsonResponse('Updated.', z.object({ space: spaceSchema })) },
    }),
    async (c) => {
      const { space, role } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space.update');
      const { name } = c.req.valid('json');
      await renameSpaceTo(c.get('services'), space.id, name);
      return c.json({ space: spaceView({ ...space, name }, role) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}',
      operationId: 'deleteSpace',
      tags: ['Spaces'],
      summary: 'Delete an empty space',
      errors: { 409: ['space-not-empty'] },
      description:
        'Delete an empty space (owners); a space with apps, resources or connections is refused (409 `space-not-empty`).',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('Deleted.', okSchema) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space.delete');
      await deleteEmptySpace(c.get('services'), space.id);
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
