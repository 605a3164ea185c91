import { z } from '@hono/zod-openapi';
import type { AppRow } from '../../adapters/database/index.js';
import { changeApp, createApp, spaceApps } from '../../application/apps/app-service.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';

/** An app as the API shows it. */
export const appSchema = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    kind: z.enum(['agent', 'workflow', 'router']),
    name: z.string(),
    description: z.string(),
    mode: z.enum(['react', 'plan-executor']).nullable(),
    state: z.enum(['active', 'deleting']),
    latestReleaseId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('App');

export function appView(row: AppRow): z.infer<typeof appSchema> {
  return {
    id: row.id,
    spaceId: row.space_id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    mode: row.mode,
    state: row.state,
    latestReleaseId: row.latest_release_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const createBody = z
  .strictObject({
    kind: z.enum(['agent', 'workflow', 'router']),
    mode: z.enum(['react', 'plan-executor']).optional(),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
  })
  .openapi('CreateApp');
const updateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    mode: z
      .string()
      .optional()
      .openapi({ description: 'Refused (422 `mode-immutable`) when it differs: the mode is fixed at creation (P-3.5).' }),
    kind: z.string().optional().openapi({ description: 'Refused (422 `kind-immutable`) when it differs.' }),
  })
  .openapi('UpdateApp');
const appParameters = z.object({ appId: idParameter('appId') });
const appResult = z.object({ app: appSchema });

/** `/spaces/:spaceId/apps` and `/apps/:appId`: agent and workflow apps (P-3). */
export function appRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/apps',
      operationId: 'listApps',
      tags: ['Apps'],
      summary: 'List apps',
      description: 'List apps, optionally of one kind.',
      request: {
        params: z.object({ spaceId: idParameter('spaceId') }),
        query: z.object({ kind: z.enum(['agent', 'workflow', 'router']).optional() }),
      },
      responses: { 200: jsonResponse('Apps.', z.object({ apps: z.array(appSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'apps.read');
      return c.json({ apps: (await spaceApps(c.get('services'), space.id, c.req.valid('query').kind)).map(appView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/apps',
      operationId: 'createApp',
      tags: ['Apps'],
      summary: 'Create an app',
      errors: { 422: ['mode-required', 'mode-not-allowed'] },
      description: 'Create an app with an empty draft and its file root; an agent’s mode is fixed here for good.',
      request: { params: z.object({ spaceId: idParameter('spaceId') }), body: jsonBody(createBody) },
      responses: { 201: jsonResponse('Created.', appResult) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'apps.manage');
      const body = c.req.valid('json');
      const row = await createApp(c.get('services'), space.id, currentActor(c), body);
      return c.json({ app: appView(row) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}',
      operationId: 'getApp',
      tags: ['Apps'],
      summary: 'Read an app',
      description: 'Read an app.',
      request: { params: appParameters },
      responses: { 200: jsonResponse('The app.', appResult) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      return c.json({ app: appView(row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/apps/{appId}',
      operationId: 'updateApp',
      tags: ['Apps'],
      summary: 'Rename or describe an app',
      errors: { 422: ['kind-immutable', 'mode-immutable'] },
      description: 'Rename or describe an app; its kind and mode never change.',
      request: { params: appParameters, body: jsonBody(updateBody) },
      responses: { 200: jsonResponse('Updated.', appResult) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.manage');
      const body = c.req.valid('json');
      return c.json({ app: appView(await changeApp(c.get('services'), row, body)) }, 200);
    },
  );

  return app;
}
