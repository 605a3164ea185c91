import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from '@hono/zod-openapi';
import { newId } from '../../adapters/crypto/index.js';
import type { AppRow } from '../../adapters/database/index.js';
import { agentNameOf } from '../../application/releases/resolve-snapshot.js';
import { agentDraftSchemaVersion, emptyAgentDraft, emptyWorkflowDraft } from '../../domain/index.js';
import { ApiError } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';

/** An app as the API shows it. */
export const appSchema = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    kind: z.enum(['agent', 'workflow']),
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
    kind: z.enum(['agent', 'workflow']),
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
      summary: 'List apps, optionally of one kind.',
      request: {
        params: z.object({ spaceId: idParameter('spaceId') }),
        query: z.object({ kind: z.enum(['agent', 'workflow']).optional() }),
      },
      responses: { 200: jsonResponse('Apps.', z.object({ apps: z.array(appSchema) })) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'apps.read');
      const { kind } = c.req.valid('query');
      let query = c.get('services').database.selectFrom('apps').selectAll().where('space_id', '=', space.id);
      if (kind) query = query.where('kind', '=', kind);
      return c.json({ apps: (await query.orderBy('name').execute()).map(appView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/apps',
      summary: 'Create an app with an empty draft and its file root; an agent’s mode is fixed here for good.',
      request: { params: z.object({ spaceId: idParameter('spaceId') }), body: jsonBody(createBody) },
      responses: { 201: jsonResponse('Created.', appResult) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, 'apps.manage');
      const body = c.req.valid('json');
      if (body.kind === 'agent' && !body.mode)
        throw new ApiError(422, 'mode-required', 'An agent app needs a mode: react or plan-executor.');
      if (body.kind === 'workflow' && body.mode)
        throw new ApiError(422, 'mode-not-allowed', 'A workflow is not an agent mode (NOT-9); send no mode.');
      const { database, now, config } = c.get('services');
      const id = newId('app');
      const at = now().toISOString();
      const row: AppRow = {
        id,
        space_id: space.id,
        kind: body.kind,
        name: body.name,
        description: body.description,
        mode: body.kind === 'agent' ? (body.mode ?? null) : null,
        file_root: path.join(config.dataDirectory, 'spaces', space.id, body.kind === 'agent' ? 'agents' : 'workflows', id),
        state: 'active',
        latest_release_id: null,
        created_by: currentActor(c),
        created_at: at,
        updated_at: at,
      };
      await database.transaction().execute(async (transaction) => {
        await transaction.insertInto('apps').values(row).execute();
        await transaction
          .insertInto('app_drafts')
          .values({
            app_id: id,
            config: JSON.stringify(
              body.kind === 'agent' ? emptyAgentDraft() : emptyWorkflowDraft(agentNameOf({ id, name: body.name })),
            ),
            schema_version: agentDraftSchemaVersion,
            revision: 1,
            updated_by: row.created_by,
            updated_at: at,
          })
          .execute();
        // The file root exists from creation on (P-12.2); made inside the transaction so that a failure leaves no row.
        await mkdir(path.join(row.file_root, 'wiki'), { recursive: true });
        await mkdir(path.join(row.file_root, 'files'), { recursive: true });
      });
      return c.json({ app: appView(row) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}',
      summary: 'Read an app.',
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
      summary: 'Rename or describe an app; its kind and mode never change.',
      request: { params: appParameters, body: jsonBody(updateBody) },
      responses: { 200: jsonResponse('Updated.', appResult) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.manage');
      const body = c.req.valid('json');
      if (body.mode !== undefined && body.mode !== row.mode)
        throw new ApiError(422, 'mode-immutable', 'An agent’s execution mode cannot change after creation (P-3.5).');
      if (body.kind !== undefined && body.kind !== row.kind)
        throw new ApiError(422, 'kind-immutable', 'An app’s kind cannot change.');
      const changes = {
        updated_at: c.get('services').now().toISOString(),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      };
      await c.get('services').database.updateTable('apps').set(changes).where('id', '=', row.id).execute();
      return c.json({ app: appView({ ...row, ...changes }) }, 200);
    },
  );

  return app;
}
