import { z } from '@hono/zod-openapi';
import { addMember, changeMemberRole, removeMember, spaceMembers } from '../../application/members/member-service.js';
import { authorizeSpace, spaceRoles } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { registerSpaceList, spaceParameters } from './space-list-route.js';

const roleSchema = z.enum(spaceRoles as ['viewer', 'editor', 'admin', 'owner']);
const memberSchema = z
  .object({ userId: z.string(), email: z.string(), displayName: z.string(), role: roleSchema, createdAt: z.string() })
  .openapi('Member');
const memberParameters = z.object({ spaceId: idParameter('spaceId'), userId: idParameter('userId') });

/** `/spaces/:spaceId/members`: who may do what in a space (D-P6). */
export function memberRoutes() {
  const app = createSubApp();

  registerSpaceList(app, {
    collection: 'members',
    operationId: 'listMembers',
    tag: 'Members',
    summary: 'List members',
    description: 'List members and roles.',
    key: 'members',
    item: memberSchema,
    permission: 'members.read',
    load: spaceMembers,
  });

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/members',
      operationId: 'addMember',
      tags: ['Members'],
      summary: 'Add a member',
      errors: { 409: ['already-member'], 422: ['unknown-user'] },
      description: 'Add an existing user to the space with a role (admins; owners for `owner`).',
      request: {
        params: spaceParameters,
        body: jsonBody(z.strictObject({ email: z.string().min(3).max(320), role: roleSchema }).openapi('AddMember')),
      },
      responses: { 201: jsonResponse('Added.', z.object({ member: memberSchema })) },
    }),
    async (c) => {
      const { space, role: actorRole } = await authorizeSpace(c, c.req.valid('param').spaceId, 'members.manage');
      const { email, role } = c.req.valid('json');
      return c.json({ member: await addMember(c.get('services'), space.id, actorRole, email, role) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/members/{userId}',
      operationId: 'changeMemberRole',
      tags: ['Members'],
      summary: "Change a member's role",
      errors: { 409: ['last-owner'] },
      description: "Change a member's role.",
      request: { params: memberParameters, body: jsonBody(z.strictObject({ role: roleSchema }).openapi('ChangeMember')) },
      responses: { 200: jsonResponse('Changed.', z.object({ member: memberSchema })) },
    }),
    async (c) => {
      const { spaceId, userId } = c.req.valid('param');
      const { space, role: actorRole } = await authorizeSpace(c, spaceId, 'members.manage');
      const { role } = c.req.valid('json');
      return c.json({ member: await changeMemberRole(c.get('services'), space.id, actorRole, userId, role) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/members/{userId}',
      operationId: 'removeMember',
      tags: ['Members'],
      summary: 'Remove a member',
      errors: { 409: ['last-owner'] },
      description: 'Remove a member.',
      request: { params: memberParameters },
      responses: { 200: jsonResponse('Removed.', okSchema) },
    }),
    async (c) => {
      const { spaceId, userId } = c.req.valid('param');
      const { space, role: actorRole } = await authorizeSpace(c, spaceId, 'members.manage');
      await removeMember(c.get('services'), space.id, actorRole, userId);
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
