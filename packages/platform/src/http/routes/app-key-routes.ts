import { z } from '@hono/zod-openapi';
import { createApiKey, withCreators } from '../../adapters/identity/index.js';
import { notFound } from '../api-error.js';
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
      summary: 'List app keys (prefixes only).',
      request: { params: appParameters },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'app-keys.manage');
      const rows = await c
        .get('services')
        .database.selectFrom('api_keys')
        .selectAll()
        .where('app_id', '=', row.id)
        .orderBy('created_at')
        .execute();
      return c.json({ keys: (await withCreators(c.get('services').database, rows)).map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/api-keys',
      summary: 'Create an app key; the secret is in this response only.',
      request: {
        params: appParameters,
        body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('CreateAppKey')),
      },
      responses: { 201: jsonResponse('Created.', createdApiKeySchema) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'app-keys.manage');
      const { database, now } = c.get('services');
      const { row: key, secret } = await createApiKey(database, {
        spaceId: row.space_id,
        appId: row.id,
        name: c.req.valid('json').name,
        createdBy: currentActor(c),
        now: now(),
      });
      const [shown] = await withCreators(database, [key]);
      return c.json({ key: apiKeyView(shown as NonNullable<typeof shown>), secret }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/apps/{appId}/api-keys/{keyId}',
      summary: 'Revoke an app key.',
      request: { params: appParameters.extend({ keyId: idParameter('keyId') }) },
      responses: { 200: jsonResponse('Revoked.', okSchema) },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid('param');
      const { app: row } = await authorizeApp(c, appId, 'app-keys.manage');
      const { database, now } = c.get('services');
      const result = await database
        .updateTable('api_keys')
        .set({ revoked_at: now().toISOString() })
        .where('id', '=', keyId)
        .where('app_id', '=', row.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound('The key');
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
