import { z } from '@hono/zod-openapi';
import type { Kysely, Transaction } from 'kysely';
import type { PlatformDatabase } from '../../adapters/database/schema.js';
import { ApiError, forbidden, notFound } from '../api-error.js';
import { authorizeSpace, type SpaceRole, spaceRoles } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';

const roleSchema = z.enum(spaceRoles as ['viewer', 'editor', 'admin', 'owner']);
const memberSchema = z
  .object({ userId: z.string(), email: z.string(), displayName: z.string(), role: roleSchema, createdAt: z.string() })
  .openapi('Member');
const spaceParameters = z.object({ spaceId: idParameter('spaceId') });
const memberParameters = z.object({ spaceId: idParameter('spaceId'), userId: idParameter('userId') });

async function readMember(database: Kysely<PlatformDatabase> | Transaction<PlatformDatabase>, spaceId: string, userId: string) {
  const row = await database
    .selectFrom('space_members')
    .innerJoin('users', 'users.id', 'space_members.user_id')
    .select([
      'users.id as userId',
      'users.email',
      'users.display_name as displayName',
      'space_members.role',
      'space_members.created_at as createdAt',
    ])
    .where('space_members.space_id', '=', spaceId)
    .where('space_members.user_id', '=', userId)
    .executeTakeFirst();
  return row;
}

/** Only an owner may make or unmake owners; admins manage the other roles. */
function checkOwnerChange(actorRole: SpaceRole, from: SpaceRole | undefined, to: SpaceRole | undefined): void {
  if ((from === 'owner' || to === 'owner') && actorRole !== 'owner') throw forbidden('changing owners', { needed: 'owner' });
}

async function ensureAnotherOwner(transaction: Transaction<PlatformDatabase>, spaceId: string, userId: string): Promise<void> {
  const others = await transaction
    .selectFrom('space_members')
    .select('user_id')
    .where('space_id', '=', spaceId)
    .where('role', '=', 'owner')
    .where('user_id', '!=', userId)
    .execute();
  if (others.length === 0) throw new ApiError(409, 'last-owner', 'A space must keep at least one owner.');
}

/** `/spaces/:spaceId/members`: who may do what in a space (D-P6). */
export function memberRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/members',
      summary: 'List members and roles.',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('Members.', z.object({ members: z.array(memberSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'members.read');
      const members = await c
        .get('services')
        .database.selectFrom('space_members')
        .innerJoin('users', 'users.id', 'space_members.user_id')
        .select([
          'users.id as userId',
          'users.email',
          'users.display_name as displayName',
          'space_members.role',
          'space_members.created_at as createdAt',
        ])
        .where('space_members.space_id', '=', space.id)
        .orderBy('space_members.created_at')
        .execute();
      return c.json({ members }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/members',
      summary: 'Add an existing user to the space with a role (admins; owners for `owner`).',
      request: {
        params: spaceParameters,
        body: jsonBody(z.strictObject({ email: z.string().min(3).max(320), role: roleSchema }).openapi('AddMember')),
      },
      responses: { 201: jsonResponse('Added.', z.object({ member: memberSchema })) },
    }),
    async (c) => {
      const { space, role: actorRole } = await authorizeSpace(c, c.req.valid('param').spaceId, 'members.manage');
      const { email, role } = c.req.valid('json');
      checkOwnerChange(actorRole, undefined, role);
      const { database, now } = c.get('services');
      const member = await database.transaction().execute(async (transaction) => {
        const user = await transaction
          .selectFrom('users')
          .select('id')
          .where('email', '=', email.toLowerCase())
          .executeTakeFirst();
        if (!user) throw new ApiError(422, 'unknown-user', 'No user has that email; an instance admin creates accounts first.');
        if (await readMember(transaction, space.id, user.id))
          throw new ApiError(409, 'already-member', 'The user is a member already.');
        await transaction
          .insertInto('space_members')
          .values({ space_id: space.id, user_id: user.id, role, created_at: now().toISOString() })
          .execute();
        return readMember(transaction, space.id, user.id);
      });
      if (!member) throw notFound('The member');
      return c.json({ member }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/members/{userId}',
      summary: "Change a member's role.",
      request: { params: memberParameters, body: jsonBody(z.strictObject({ role: roleSchema }).openapi('ChangeMember')) },
      responses: { 200: jsonResponse('Changed.', z.object({ member: memberSchema })) },
    }),
    async (c) => {
      const { spaceId, userId } = c.req.valid('param');
      const { space, role: actorRole } = await authorizeSpace(c, spaceId, 'members.manage');
      const { role } = c.req.valid('json');
      const member = await c
        .get('services')
        .database.transaction()
        .execute(async (transaction) => {
          const existing = await readMember(transaction, space.id, userId);
          if (!existing) throw notFound('The member');
          checkOwnerChange(actorRole, existing.role, role);
          if (existing.role === 'owner' && role !== 'owner') await ensureAnotherOwner(transaction, space.id, userId);
          await transaction
            .updateTable('space_members')
            .set({ role })
            .where('space_id', '=', space.id)
            .where('user_id', '=', userId)
            .execute();
          return { ...existing, role };
        });
      return c.json({ member }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/members/{userId}',
      summary: 'Remove a member.',
      request: { params: memberParameters },
      responses: { 200: jsonResponse('Removed.', okSchema) },
    }),
    async (c) => {
      const { spaceId, userId } = c.req.valid('param');
      const { space, role: actorRole } = await authorizeSpace(c, spaceId, 'members.manage');
      await c
        .get('services')
        .database.transaction()
        .execute(async (transaction) => {
          const existing = await readMember(transaction, space.id, userId);
          if (!existing) throw notFound('The member');
          checkOwnerChange(actorRole, existing.role, undefined);
          if (existing.role === 'owner') await ensureAnotherOwner(transaction, space.id, userId);
          await transaction.deleteFrom('space_members').where('space_id', '=', space.id).where('user_id', '=', userId).execute();
        });
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
