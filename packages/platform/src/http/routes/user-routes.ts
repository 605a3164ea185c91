import { z } from '@hono/zod-openapi';
import { allUsers, changeAccount, createAccount, keysMadeBy } from '../../application/users/user-service.js';
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
      operationId: 'listUsers',
      tags: ['Users'],
      summary: 'List users',
      description: 'List users (instance admins).',
      responses: { 200: jsonResponse('Users.', z.object({ users: z.array(userSchema) })) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const rows = await allUsers(c.get('services'));
      return c.json({ users: rows.map(userView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/users',
      operationId: 'createUser',
      tags: ['Users'],
      summary: 'Create a user',
      errors: { 409: ['email-taken'] },
      description: 'Create a local account (instance admins).',
      request: { body: jsonBody(createUserBody) },
      responses: { 201: jsonResponse('Created.', z.object({ user: userSchema })) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const body = c.req.valid('json');
      return c.json({ user: userView(await createAccount(c.get('services'), body)) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/users/{userId}',
      operationId: 'updateUser',
      tags: ['Users'],
      summary: 'Change a user',
      errors: { 409: ['cannot-demote-self'] },
      description:
        'Change a user: name, password, status, instance admin; disabling can revoke the API keys they made (instance admins).',
      request: { params: z.object({ userId: idParameter('userId') }), body: jsonBody(updateUserBody) },
      responses: { 200: jsonResponse('Updated.', updatedUser) },
    }),
    async (c) => {
      const admin = requireInstanceAdmin(c);
      const { userId } = c.req.valid('param');
      const body = c.req.valid('json');
      const { row, revoked } = await changeAccount(c.get('services'), admin.userId, userId, body);
      return c.json({ user: userView(row), revokedApiKeys: revoked.map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/users/{userId}/api-keys',
      operationId: 'listUserKeys',
      tags: ['API keys'],
      summary: "List a user's API keys",
      description: 'Every API key a user made, in any space, active or revoked (instance admins).',
      request: { params: z.object({ userId: idParameter('userId') }) },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const { userId } = c.req.valid('param');
      return c.json({ keys: (await keysMadeBy(c.get('services'), userId)).map(apiKeyView) }, 200);
    },
  );

  return app;
}
