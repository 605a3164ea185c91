import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { maskSecret, newId } from '../../adapters/crypto/index.js';
import type { ModelConnectionRow } from '../../adapters/database/index.js';
import { readConnectionView } from '../../adapters/database/repositories/connection-repository.js';
import { catalogueEntrySchema, connectionSettingsSchema, providers } from '../../adapters/models/index.js';
import { notFound } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeSpace, type SpaceAction } from '../authorization.js';
import { refuseDeniedUrl } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import type { PlatformEnvironment } from '../services.js';

const keySchema = z
  .object({ id: z.string(), label: z.string(), mask: z.string(), active: z.boolean(), createdAt: z.string() })
  .openapi('ModelKey');
const catalogueSchema = z.object({
  modelId: z.string(),
  contextWindow: z.number().nullable(),
  supportsThinking: z.boolean(),
  enabled: z.boolean(),
});
const connectionSchema = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    name: z.string(),
    provider: z.enum(providers),
    baseUrl: z.string().nullable(),
    settings: connectionSettingsSchema,
    state: z.enum(['active', 'archived']),
    keys: z.array(keySchema),
    models: z.array(catalogueSchema),
    updatedAt: z.string(),
  })
  .openapi('ModelConnection');
const newKeySchema = z
  .strictObject({ label: z.string().trim().min(1).max(100), value: z.string().min(1).max(10_000) })
  .openapi('NewModelKey');
const createBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    provider: z.enum(providers),
    baseUrl: z.url().max(2000).nullable().default(null),
    settings: connectionSettingsSchema.default({}),
    key: newKeySchema.optional(),
    models: z.array(catalogueEntrySchema).max(500).default([]),
  })
  .openapi('CreateModelConnection');
const updateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    baseUrl: z.url().max(2000).nullable().optional(),
    settings: connectionSettingsSchema.optional(),
    models: z.array(catalogueEntrySchema).max(500).optional(),
  })
  .openapi('UpdateModelConnection');
const spaceParameters = z.object({ spaceId: idParameter('spaceId') });
const connectionParameters = z.object({ spaceId: idParameter('spaceId'), connectionId: idParameter('connectionId') });
const keyParameters = connectionParameters.extend({ keyId: idParameter('keyId') });
const connectionResult = z.object({ connection: connectionSchema });

export async function loadConnection(
  c: Context<PlatformEnvironment>,
  spaceId: string,
  connectionId: string,
  action: SpaceAction,
): Promise<ModelConnectionRow> {
  const { space } = await authorizeSpace(c, spaceId, action);
  const row = await c
    .get('services')
    .database.selectFrom('model_connections')
    .selectAll()
    .where('id', '=', connectionId)
    .where('space_id', '=', space.id)
    .executeTakeFirst();
  if (!row) throw notFound('The model connection');
  return row;
}

/** `/spaces/:spaceId/model-connections`: shared model endpoints with labelled, encrypted, masked keys (P-5.2, P-14.8). */
export function connectionRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/model-connections',
      summary: 'List model connections (keys masked).',
      request: { params: spaceParameters },
      responses: { 200: jsonResponse('Connections.', z.object({ connections: z.array(connectionSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'connections.read');
      const { database } = c.get('services');
      const rows = await database
        .selectFrom('model_connections')
        .selectAll()
        .where('space_id', '=', space.id)
        .orderBy('name')
        .execute();
      return c.json({ connections: await Promise.all(rows.map((row) => readConnectionView(database, row))) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/model-connections',
      summary: 'Create a model connection, optionally with its first key (which becomes active).',
      request: { params: spaceParameters, body: jsonBody(createBody) },
      responses: { 201: jsonResponse('Created.', connectionResult) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'connections.manage');
      const body = c.req.valid('json');
      refuseDeniedUrl(c.get('services'), 'baseUrl', body.baseUrl);
      const { database, secretBox, now } = c.get('services');
      const at = now().toISOString();
      const row: ModelConnectionRow = {
        id: newId('mc'),
        space_id: space.id,
        name: body.name,
        provider: body.provider,
        base_url: body.baseUrl,
        settings: JSON.stringify(body.settings),
        state: 'active',
        created_by: currentActor(c),
        updated_at: at,
      };
      const view = await database.transaction().execute(async (transaction) => {
        await transaction.insertInto('model_connections').values(row).execute();
        if (body.key) {
          await transaction
            .insertInto('model_connection_keys')
            .values({
              id: newId('mk'),
              connection_id: row.id,
              label: body.key.label,
              ciphertext: secretBox.seal(body.key.value),
              mask: maskSecret(body.key.value),
              active: 1,
              created_at: at,
            })
            .execute();
        }
        for (const model of body.models) {
          await transaction
            .insertInto('models')
            .values({
              connection_id: row.id,
              model_id: model.modelId,
              context_window: model.contextWindow,
              supports_thinking: model.supportsThinking ? 1 : 0,
              enabled: model.enabled ? 1 : 0,
            })
            .execute();
        }
        return readConnectionView(transaction, row);
      });
      return c.json({ connection: view }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/model-connections/{connectionId}',
      summary: 'Read a connection (keys masked).',
      request: { params: connectionParameters },
      responses: { 200: jsonResponse('The connection.', connectionResult) },
    }),
    async (c) => {
      const { spaceId, connectionId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.read');
      return c.json({ connection: await readConnectionView(c.get('services').database, row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/model-connections/{connectionId}',
      summary: 'Change name, base URL, settings or the model catalogue; the provider is fixed.',
      request: { params: connectionParameters, body: jsonBody(updateBody) },
      responses: { 200: jsonResponse('Updated.', connectionResult) },
    }),
    async (c) => {
      const { spaceId, connectionId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.manage');
      const body = c.req.valid('json');
      refuseDeniedUrl(c.get('services'), 'baseUrl', body.baseUrl);
      const { database, now } = c.get('services');
      const view = await database.transaction().execute(async (transaction) => {
        const changes = {
          updated_at: now().toISOString(),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.baseUrl !== undefined ? { base_url: body.baseUrl } : {}),
          ...(body.settings !== undefined ? { settings: JSON.stringify(body.settings) } : {}),
        };
        await transaction.updateTable('model_connections').set(changes).where('id', '=', row.id).execute();
        if (body.models) {
          await transaction.deleteFrom('models').where('connection_id', '=', row.id).execute();
          for (const model of body.models) {
            await transaction
              .insertInto('models')
              .values({
                connection_id: row.id,
                model_id: model.modelId,
                context_window: model.contextWindow,
                supports_thinking: model.supportsThinking ? 1 : 0,
                enabled: model.enabled ? 1 : 0,
              })
              .execute();
          }
        }
        return readConnectionView(
          transaction,
          await transaction.selectFrom('model_connections').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow(),
        );
      });
      return c.json({ connection: view }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/model-connections/{connectionId}',
      summary: 'Delete a connection; one that apps or releases reference is archived instead (`archived: true`).',
      request: { params: connectionParameters },
      responses: { 200: jsonResponse('Deleted or archived.', z.object({ archived: z.boolean() })) },
    }),
    async (c) => {
      const { spaceId, connectionId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.manage');
      const { database, now } = c.get('services');
      const archived = await database.transaction().execute(async (transaction) => {
        const reference = await transaction
          .selectFrom('app_resource_refs')
          .select('id')
          .where('target_kind', '=', 'model-connection')
          .where('resource_id', '=', row.id)
          .executeTakeFirst();
        if (reference) {
          await transaction
            .updateTable('model_connections')
            .set({ state: 'archived', updated_at: now().toISOString() })
            .where('id', '=', row.id)
            .execute();
          return true;
        }
        await transaction.deleteFrom('model_connections').where('id', '=', row.id).execute();
        return false;
      });
      return c.json({ archived }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/keys',
      summary: 'Add a labelled key (encrypted at rest); `active: true` makes it the one in use.',
      request: {
        params: connectionParameters,
        body: jsonBody(newKeySchema.extend({ active: z.boolean().default(false) }).openapi('AddModelKey')),
      },
      responses: { 201: jsonResponse('Added.', connectionResult) },
    }),
    async (c) => {
      const { spaceId, connectionId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.manage');
      const body = c.req.valid('json');
      const { database, secretBox, now } = c.get('services');
      const view = await database.transaction().execute(async (transaction) => {
        const hasActive = await transaction
          .selectFrom('model_connection_keys')
          .select('id')
          .where('connection_id', '=', row.id)
          .where('active', '=', 1)
          .executeTakeFirst();
        const active = body.active || !hasActive;
        if (active)
          await transaction.updateTable('model_connection_keys').set({ active: 0 }).where('connection_id', '=', row.id).execute();
        await transaction
          .insertInto('model_connection_keys')
          .values({
            id: newId('mk'),
            connection_id: row.id,
            label: body.label,
            ciphertext: secretBox.seal(body.value),
            mask: maskSecret(body.value),
            active: active ? 1 : 0,
            created_at: now().toISOString(),
          })
          .execute();
        return readConnectionView(transaction, row);
      });
      return c.json({ connection: view }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}',
      summary: 'Make a key the active one (the others become inactive); running agents pick it up at their next construction.',
      request: { params: keyParameters, body: jsonBody(z.strictObject({ active: z.literal(true) }).openapi('ActivateModelKey')) },
      responses: { 200: jsonResponse('Activated.', connectionResult) },
    }),
    async (c) => {
      const { spaceId, connectionId, keyId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.manage');
      const { database } = c.get('services');
      const view = await database.transaction().execute(async (transaction) => {
        const key = await transaction
          .selectFrom('model_connection_keys')
          .select('id')
          .where('id', '=', keyId)
          .where('connection_id', '=', row.id)
          .executeTakeFirst();
        if (!key) throw notFound('The key');
        await transaction.updateTable('model_connection_keys').set({ active: 0 }).where('connection_id', '=', row.id).execute();
        await transaction.updateTable('model_connection_keys').set({ active: 1 }).where('id', '=', keyId).execute();
        return readConnectionView(transaction, row);
      });
      return c.json({ connection: view }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}',
      summary: 'Delete a key.',
      request: { params: keyParameters },
      responses: { 200: jsonResponse('Deleted.', okSchema) },
    }),
    async (c) => {
      const { spaceId, connectionId, keyId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.manage');
      const result = await c
        .get('services')
        .database.deleteFrom('model_connection_keys')
        .where('id', '=', keyId)
        .where('connection_id', '=', row.id)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('The key');
      return c.json({ ok: true as const }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/models',
      summary: "The connection's model catalogue.",
      request: { params: connectionParameters },
      responses: { 200: jsonResponse('Models.', z.object({ models: z.array(catalogueSchema) })) },
    }),
    async (c) => {
      const { spaceId, connectionId } = c.req.valid('param');
      const row = await loadConnection(c, spaceId, connectionId, 'connections.read');
      const view = await readConnectionView(c.get('services').database, row);
      return c.json({ models: view.models }, 200);
    },
  );

  return app;
}
