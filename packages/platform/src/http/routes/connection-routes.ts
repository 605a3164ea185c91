import { z } from '@hono/zod-openapi';
import { catalogueEntrySchema, connectionSettingsSchema, providers } from '../../adapters/models/index.js';
import {
  activateConnectionKey,
  addConnectionKey,
  changeConnection,
  connectionOfSpace,
  connectionView,
  createConnection,
  listSpaceConnections,
  removeConnection,
  removeConnectionKey,
} from '../../application/connections/connection-service.js';
import { currentActor } from '../authentication.js';
import { authorizeSpace } from '../authorization.js';
import { refuseDeniedUrl } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import { spaceEntityLoader } from './space-entity.js';
import { registerSpaceList, spaceParameters } from './space-list-route.js';

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
const connectionParameters = z.object({ spaceId: idParameter('spaceId'), connectionId: idParameter('connectionId') });
const keyParameters = connectionParameters.extend({ keyId: idParameter('keyId') });
const connectionResult = z.object({ connection: connectionSchema });

/** The model connection the path names, in a space where the caller may do `action`. */
export const loadConnection = spaceEntityLoader('connectionId', connectionOfSpace);

/** `/spaces/:spaceId/model-connections`: shared model endpoints with labelled, encrypted, masked keys (P-5.2, P-14.8). */
export function connectionRoutes() {
  const app = createSubApp();

  registerSpaceList(app, {
    collection: 'model-connections',
    operationId: 'listModelConnections',
    tag: 'Model connections',
    summary: 'List model connections',
    description: 'List model connections (keys masked).',
    key: 'connections',
    item: connectionSchema,
    permission: 'connections.read',
    load: listSpaceConnections,
  });

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/model-connections',
      operationId: 'createModelConnection',
      tags: ['Model connections'],
      summary: 'Create a model connection',
      errors: { 422: ['egress-denied'] },
      description: 'Create a model connection, optionally with its first key (which becomes active).',
      request: { params: spaceParameters, body: jsonBody(createBody) },
      responses: { 201: jsonResponse('Created.', connectionResult) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'connections.manage');
      const body = c.req.valid('json');
      refuseDeniedUrl(c.get('services'), 'baseUrl', body.baseUrl);
      const view = await createConnection(c.get('services'), space.id, currentActor(c), body);
      return c.json({ connection: view }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/model-connections/{connectionId}',
      operationId: 'getModelConnection',
      tags: ['Model connections'],
      summary: 'Read a model connection',
      description: 'Read a connection (keys masked).',
      request: { params: connectionParameters },
      responses: { 200: jsonResponse('The connection.', connectionResult) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.read');
      return c.json({ connection: await connectionView(c.get('services'), row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/model-connections/{connectionId}',
      operationId: 'updateModelConnection',
      tags: ['Model connections'],
      summary: 'Change a model connection',
      errors: { 422: ['egress-denied'] },
      description: 'Change name, base URL, settings or the model catalogue; the provider is fixed.',
      request: { params: connectionParameters, body: jsonBody(updateBody) },
      responses: { 200: jsonResponse('Updated.', connectionResult) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.manage');
      const body = c.req.valid('json');
      refuseDeniedUrl(c.get('services'), 'baseUrl', body.baseUrl);
      return c.json({ connection: await changeConnection(c.get('services'), row, body) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/model-connections/{connectionId}',
      operationId: 'deleteModelConnection',
      tags: ['Model connections'],
      summary: 'Delete or archive a model connection',
      description: 'Delete a connection; one that apps or releases reference is archived instead (`archived: true`).',
      request: { params: connectionParameters },
      responses: { 200: jsonResponse('Deleted or archived.', z.object({ archived: z.boolean() })) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.manage');
      return c.json({ archived: await removeConnection(c.get('services'), row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/keys',
      operationId: 'addModelConnectionKey',
      tags: ['Model connections'],
      summary: 'Add a key to a model connection',
      description: 'Add a labelled key (encrypted at rest); `active: true` makes it the one in use.',
      request: {
        params: connectionParameters,
        body: jsonBody(newKeySchema.extend({ active: z.boolean().default(false) }).openapi('AddModelKey')),
      },
      responses: { 201: jsonResponse('Added.', connectionResult) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.manage');
      const body = c.req.valid('json');
      return c.json({ connection: await addConnectionKey(c.get('services'), row, body) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}',
      operationId: 'activateModelConnectionKey',
      tags: ['Model connections'],
      summary: 'Make a key the active one',
      description:
        'Make a key the active one (the others become inactive); running agents pick it up at their next construction.',
      request: { params: keyParameters, body: jsonBody(z.strictObject({ active: z.literal(true) }).openapi('ActivateModelKey')) },
      responses: { 200: jsonResponse('Activated.', connectionResult) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.manage');
      const { keyId } = c.req.valid('param');
      return c.json({ connection: await activateConnectionKey(c.get('services'), row, keyId) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}',
      operationId: 'deleteModelConnectionKey',
      tags: ['Model connections'],
      summary: 'Delete a key of a model connection',
      description: 'Delete a key.',
      request: { params: keyParameters },
      responses: { 200: jsonResponse('Deleted.', okSchema) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.manage');
      const { keyId } = c.req.valid('param');
      await removeConnectionKey(c.get('services'), row, keyId);
      return c.json({ ok: true as const }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/models',
      operationId: 'listConnectionModels',
      tags: ['Model connections'],
      summary: 'List the models of a connection',
      description: "The connection's model catalogue.",
      request: { params: connectionParameters },
      responses: { 200: jsonResponse('Models.', z.object({ models: z.array(catalogueSchema) })) },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.read');
      const view = await connectionView(c.get('services'), row);
      return c.json({ models: view.models }, 200);
    },
  );

  return app;
}
