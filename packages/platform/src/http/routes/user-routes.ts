import { z } from '@hono/zod-openapi';
import { hashPassword } from '../../crypto/index.js';
import { createUser, EmailTakenError } from '../../identity/index.js';
import { ApiError, notFound } from '../api-error.js';
import { requireInstanceAdmin } from '../authentication.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import { userSchema, userView } from './views.js';

const createUserBody = z
  .strictObject({
    email: z.email().max(320),
    displayName: z.string().min(1).max(200),
    password: z.string().min(12).max(1000),
    isInstanceAdmin: z.boolean().default(false),
  })
  .openapi('CreateUser');
const updateUserBody = z
  .strictObject({
    displayName: z.string().min(1).max(200).optional(),
    password: z.string().min(12).max(1000).optional(),
    status: z.enum(['active', 'disabled']).optional(),
    isInstanceAdmin: z.boolean().optional(),
  })
  .openapi('UpdateUser');

/** `/users`: instance administrators manage local accounts. */
export function userRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/users',
      summary: 'List users (instance admins).',
      responses: { 200: jsonResponse('Users.', z.object({ users: z.array(userSchema) })) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const rows = await c.get('services').database.selectFrom('users').selectAll().orderBy('created_at').execute();
      return c.json({ users: rows.map(userView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/users',
      summary: 'Create a local account (instance admins).',
      request: { body: jsonBody(createUserBody) },
      responses: { 201: jsonResponse('Created.', z.object({ user: userSchema })) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const body = c.req.valid('json');
      const { database, now } = c.get('services');
      try {
        const row = await createUser(database, { ...body, now: now() });
        return c.json({ user: userView(row) }, 201);
      } catch (error) {
        if (error instanceof EmailTakenError) throw new ApiError(409, 'email-taken', error.message);
        throw error;
      }
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/users/{userId}',
      summary: 'Change a user: name, password, status, instance admin (instance admins).',
      request: { params: z.object({ userId: idParameter('userId') }), body: jsonBody(updateUserBody) },
      responses: { 200: jsonResponse('Updated.', z.object({ user: userSchema })) },
    }),
    async (c) => {
      const admin = requireInstanceAdmin(c);
      const { userId } = c.req.valid('param');
      const body = c.req.valid('json');
      const { database } = c.get('services');
      if (userId === admin.userId && (body.status === 'disabled' || body.isInstanceAdmin === false)) {
        throw new ApiError(409, 'cannot-demote-self', 'An instance admin cannot disable or demote their own account.');
      }
      const row = await database.transaction().execute(async (transaction) => {
        const existing = await transaction.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
        if (!existing) throw notFound('The user');
        const changes = {
          ...(body.displayName !== undefined ? { display_name: body.displayName } : {}),
          ...(body.password !== undefined ? { password_hash: await hashPassword(body.password) } : {}),
          ...(body.status !== undefined ? { status: body.status } : {}),
          ...(body.isInstanceAdmin !== undefined ? { is_instance_admin: body.isInstanceAdmin ? 1 : 0 } : {}),
        };
        if (Object.keys(changes).length > 0)
          await transaction.updateTable('users').set(changes).where('id', '=', userId).execute();
        // A disabled account or a new password ends every console session of that user.
        if (body.status === 'disabled' || body.password !== undefined) {
          await transaction.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
        }
        return transaction.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      });
      return c.json({ user: userView(row) }, 200);
    },
  );

  return app;
}
