import { z } from '@hono/zod-openapi';
import { maskSecret, newId } from '../../adapters/crypto/index.js';
import { ApiError, notFound } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';

const secretSchema = z.object({ id: z.string(), name: z.string(), mask: z.string(), updatedAt: z.string() }).openapi('Secret');
const spaceParameters = z.object({ spaceId: idParameter('spaceId') });

/** `/spaces/:spaceId/secrets`: write-only values for MCP headers and tool credentials, encrypted at rest. */
export function secretRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/secrets',
      summary: 'List secrets (names and masks only).',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('Secrets.', z.object({ secrets: z.array(secretSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'secrets.read');
      const rows = await c
        .get('services')
        .database.selectFrom('secrets')
        .select(['id', 'name', 'mask', 'updated_at'])
        .where('space_id', '=', space.id)
        .orderBy('name')
        .execute();
      return c.json(
        { secrets: rows.map((row) => ({ id: row.id, name: row.name, mask: row.mask, updatedAt: row.updated_at })) },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/secrets',
      summary: 'Store a secret; its value is never returned.',
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
      const { database, secretBox, now } = c.get('services');
      const row = {
        id: newId('sec'),
        space_id: space.id,
        name,
        ciphertext: secretBox.seal(value),
        mask: maskSecret(value),
        created_by: currentActor(c),
        updated_at: now().toISOString(),
      };
      await database.transaction().execute(async (transaction) => {
        const existing = await transaction
          .selectFrom('secrets')
          .select('id')
          .where('space_id', '=', space.id)
          .where('name', '=', name)
          .executeTakeFirst();
        if (existing) throw new ApiError(409, 'secret-name-taken', `A secret named ${name} exists already.`);
        await transaction.insertInto('secrets').values(row).execute();
      });
      return c.json({ secret: { id: row.id, name, mask: row.mask, updatedAt: row.updated_at } }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/secrets/{secretId}',
      summary: 'Delete a secret.',
      request: { params: z.object({ spaceId: idParameter('spaceId'), secretId: idParameter('secretId') }) },
      responses: { 200: jsonResponse('Deleted.', okSchema) },
    }),
    async (c) => {
      const { spaceId, secretId } = c.req.valid('param');
      const { space } = await authorizeSpace(c, spaceId, 'secrets.manage');
      const result = await c
        .get('services')
        .database.deleteFrom('secrets')
        .where('id', '=', secretId)
        .where('space_id', '=', space.id)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('The secret');
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}
