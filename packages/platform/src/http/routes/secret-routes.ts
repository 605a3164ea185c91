import { z } from '@hono/zod-openapi';
import { removeSecret, spaceSecrets, storeSecret } from '../../application/secrets/secret-service.js';
import { currentActor } from '../authentication.js';
import { authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { registerSpaceList, spaceParameters } from './space-list-route.js';

const secretSchema = z.object({ id: z.string(), name: z.string(), mask: z.string(), updatedAt: z.string() }).openapi('Secret');

/** `/spaces/:spaceId/secrets`: write-only values for MCP headers and tool credentials, encrypted at rest. */
export function secretRoutes() {
  const app = createSubApp();

  registerSpaceList(app, {
    collection: 'secrets',
    operationId: 'listSecrets',
    tag: 'Secrets',
    summary: 'List secrets',
    description: 'List secrets (names and masks only).',
    key: 'secrets',
    item: secretSchema,
    permission: 'secrets.read',
    load: spaceSecrets,
  });

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/secrets',
      operationId: 'createSecret',
      tags: ['Secrets'],
      summary: 'Store a secret',
      errors: { 409: ['secret-name-taken'] },
      description: 'Store a secret; its value is never returned.',
      request: {
        params: spaceParameters,
        body: jsonBody(
          z
            .strictObject({ name: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/), value: z.string().min(1).max(20_000) })
            .openapi('CreateSecret'),
        ),
      },
      responses: { 201: jsonResponse('Stored.', z.object({ secret: secretSchema })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'secrets.manage');
      const { name, value } = c.req.valid('json');
      const secret = await storeSecret(c.get('services'), space.id, currentActor(c), name, value);
      return c.json({ secret }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/secrets/{secretId}',
      operationId: 'deleteSecret',
      tags: ['Secrets'],
      summary: 'Delete a secret',
      description: 'Delete a secret.',
      request: { params: z.object({ spaceId: idParameter('spaceId'), secretId: idParameter('secretId') }) },
      responses: { 200: jsonResponse('Deleted.', okSchema) },
    }),
    async (c) => {
      const { spaceId, secretId } = c.req.valid('param');
      const { space } = await authorizeSpace(c, spaceId, 'secrets.manage');
      await removeSecret(c.get('services'), space.id, secretId);
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
