import { z } from '@hono/zod-openapi';
import { createKey, listKeys, revokeKey } from '../../application/keys/key-service.js';
import { currentActor } from '../authentication.js';
import { authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { apiKeySchema, apiKeyView, createdApiKeySchema } from './views.js';

const spaceParameters = z.object({ spaceId: idParameter('spaceId') });

/** `/spaces/:spaceId/api-keys`: space keys for the HTTP API, shown once, stored hashed. */
export function spaceKeyRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/api-keys',
      operationId: 'listSpaceKeys',
      tags: ['API keys'],
      summary: 'List space keys',
      description: 'List space keys (prefixes only).',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space-keys.manage');
      const keys = await listKeys(c.get('services'), { spaceId: space.id });
      return c.json({ keys: keys.map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/api-keys',
      operationId: 'createSpaceKey',
      tags: ['API keys'],
      summary: 'Create a space key',
      description: 'Create a space key; the secret is in this response only.',
      request: {
        params: spaceParameters,
        body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('CreateApiKey')),
      },
      responses: { 201: jsonResponse('Created.', createdApiKeySchema) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space-keys.manage');
      const { key, secret } = await createKey(
        c.get('services'),
        { spaceId: space.id, appId: null },
        c.req.valid('json').name,
        currentActor(c),
      );
      return c.json({ key: apiKeyView(key), secret }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/api-keys/{keyId}',
      operationId: 'revokeSpaceKey',
      tags: ['API keys'],
      summary: 'Revoke a space key',
      description: 'Revoke a space key.',
      request: { params: z.object({ spaceId: idParameter('spaceId'), keyId: idParameter('keyId') }) },
      responses: { 200: jsonResponse('Revoked.', okSchema) },
    }),
    async (c) => {
      const { spaceId, keyId } = c.req.valid('param');
      const { space } = await authorizeSpace(c, spaceId, 'space-keys.manage');
      await revokeKey(c.get('services'), { spaceId: space.id }, keyId);
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
