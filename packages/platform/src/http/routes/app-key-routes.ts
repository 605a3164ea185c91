import { z } from '@hono/zod-openapi';
import { createKey, listKeys, revokeKey } from '../../application/keys/key-service.js';
import { currentActor } from '../authentication.js';
import { authorizeApp } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { apiKeySchema, apiKeyView, createdApiKeySchema } from './views.js';

const appParameters = z.object({ appId: idParameter('appId') });

/** `/apps/:appId/api-keys`: keys that may only use this app's run routes (Dify-style app keys). */
export function appKeyRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/api-keys',
      operationId: 'listAppKeys',
      tags: ['API keys'],
      summary: 'List app keys',
      description: 'List app keys (prefixes only).',
      request: { params: appParameters },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'app-keys.manage');
      const keys = await listKeys(c.get('services'), { appId: row.id });
      return c.json({ keys: keys.map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/api-keys',
      operationId: 'createAppKey',
      tags: ['API keys'],
      summary: 'Create an app key',
      description: 'Create an app key; the secret is in this response only.',
      request: {
        params: appParameters,
        body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('CreateAppKey')),
      },
      responses: { 201: jsonResponse('Created.', createdApiKeySchema) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'app-keys.manage');
      const { key, secret } = await createKey(
        c.get('services'),
        { spaceId: row.space_id, appId: row.id },
        c.req.valid('json').name,
        currentActor(c),
      );
      return c.json({ key: apiKeyView(key), secret }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/apps/{appId}/api-keys/{keyId}',
      operationId: 'revokeAppKey',
      tags: ['API keys'],
      summary: 'Revoke an app key',
      description: 'Revoke an app key.',
      request: { params: appParameters.extend({ keyId: idParameter('keyId') }) },
      responses: { 200: jsonResponse('Revoked.', okSchema) },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid('param');
      const { app: row } = await authorizeApp(c, appId, 'app-keys.manage');
      await revokeKey(c.get('services'), { appId: row.id }, keyId);
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
