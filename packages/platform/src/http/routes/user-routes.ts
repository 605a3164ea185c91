import { z } from '@hono/zod-openapi';
import { hashPassword } from '../../adapters/crypto/index.js';
import { createUser, EmailTakenError, revokeKeysMadeBy, withCreators } from '../../adapters/identity/index.js';
import { ApiError, notFound } from '../api-error.js';
import { requireInstanceAdmin } from '../authentication.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import { apiKeySchema, apiKeyView, userSchema, userView } from './views.js';

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
    revokeApiKeys: z.boolean().optional().openapi({
      description: 'With `status: "disabled"`: also revoke every active API key this user made (listed in the answer).',
    }),
  })
  .refine((body) => !body.revokeApiKeys || body.status === 'disabled', {
    message: 'revokeApiKeys goes with status "disabled".',
    path: ['revokeApiKeys'],
  })
  .openapi('UpdateUser');
const updatedUser = z
  .object({
    user: userSchema,
    revokedApiKeys: z.array(apiKeySchema).openapi({ description: 'The keys this change revoked (empty unless revokeApiKeys).' }),
  })
  .openapi('UpdatedUser');

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
      summary:
        'Change a user: name, password, status, instance admin; disabling can revoke the API keys they made (instance admins).',
      request: { params: z.object({ userId: idParameter('userId') }), body: jsonBody(updateUserBody) },
      responses: { 200: jsonResponse('Updated.', updatedUser) },
    }),
    async (c) => {
      const admin = requireInstanceAdmin(c);
      const { userId } = c.req.valid('param');
      const body = c.req.valid('json');
      const { database, now } = c.get('services');
      if (userId === admin.userId && (body.status === 'disabled' || body.isInstanceAdmin === false)) {
        throw new ApiError(409, 'cannot-demote-self', 'An instance admin cannot disable or demote their own account.');
      }
      const { row, revoked } = await database.transaction().execute(async (transaction) => {
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
        const revokedKeys = body.revokeApiKeys ? await revokeKeysMadeBy(transaction, userId, now()) : [];
        return {
          row: await transaction.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow(),
          revoked: await withCreators(transaction, revokedKeys),
        };
      });
      return c.json({ user: userView(row), revokedApiKeys: revoked.map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/users/{userId}/api-keys',
      summary: 'Every API key a user made, in any space, active or revoked (instance admins).',
      request: { params: z.object({ userId: idParameter('userId') }) },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const { userId } = c.req.valid('param');
      const { database } = c.get('services');
      const user = await database.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('The user');
      const rows = await database
        .selectFrom('api_keys')
        .selectAll()
        .where('created_by', '=', user.id)
        .orderBy('created_at')
        .execute();
      return c.json({ keys: (await withCreators(database, rows)).map(apiKeyView) }, 200);
    },
  );

  return app;
}
