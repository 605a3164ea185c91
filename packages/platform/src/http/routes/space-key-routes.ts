import { z } from '@hono/zod-openapi';
import { createApiKey, withCreators } from '../../adapters/identity/index.js';
import { notFound } from '../api-error.js';
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
      summary: 'List space keys (prefixes only).',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space-keys.manage');
      const rows = await c
        .get('services')
        .database.selectFrom('api_keys')
        .selectAll()
        .where('space_id', '=', space.id)
        .where('app_id', 'is', null)
        .orderBy('created_at')
        .execute();
      return c.json({ keys: (await withCreators(c.get('services').database, rows)).map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/api-keys',
      summary: 'Create a space key; the secret is in this response only.',
      request: {
        params: spaceParameters,
        body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('CreateApiKey')),
      },
      responses: { 201: jsonResponse('Created.', createdApiKeySchema) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'space-keys.manage');
      const { database, now } = c.get('services');
      const { row, secret } = await createApiKey(database, {
        spaceId: space.id,
        appId: null,
        name: c.req.valid('json').name,
        createdBy: currentActor(c),
        now: now(),
      });
      const [shown] = await withCreators(database, [row]);
      return c.json({ key: apiKeyView(shown as NonNullable<typeof shown>), secret }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/api-keys/{keyId}',
      summary: 'Revoke a space key.',
      request: { params: z.object({ spaceId: idParameter('spaceId'), keyId: idParameter('keyId') }) },
      responses: { 200: jsonResponse('Revoked.', okSchema) },
    }),
    async (c) => {
      const { spaceId, keyId } = c.req.valid('param');
      const { space } = await authorizeSpace(c, spaceId, 'space-keys.manage');
      const { database, now } = c.get('services');
      const result = await database
        .updateTable('api_keys')
        .set({ revoked_at: now().toISOString() })
        .where('id', '=', keyId)
        .where('space_id', '=', space.id)
        .where('app_id', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound('The key');
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
