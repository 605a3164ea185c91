import { z } from '@hono/zod-openapi';
import { findApp } from '../../adapters/database/repositories/app-repository.js';
import { findDeletionOfApp } from '../../adapters/database/repositories/deletion-repository.js';
import { deletionView, requestAppDeletion, startDeletionJob } from '../../application/deletion/index.js';
import { ApiError, notFound } from '../api-error.js';
import { currentActor, requirePrincipal } from '../authentication.js';
import { authorizeApp, authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, errorResponse, idParameter, jsonResponse } from '../openapi.js';

const appParameters = z.object({ appId: idParameter('appId') });

const deletionSchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    appName: z.string(),
    step: z.enum(['stopping-runs', 'deleting-runs', 'deleting-files', 'removing-app', 'done']),
    done: z.boolean(),
    runsTotal: z.number(),
    runsDeleted: z.number(),
    attempts: z.number(),
    lastError: z.string().nullable(),
    requestedBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi('AppDeletion');

/**
 * Deleting an app (P-13, NOT-21): `DELETE /apps/:appId` marks it `deleting` and starts its
 * durable deletion job (202); `GET /apps/:appId/deletion` shows the job's progress, also after
 * the app itself is gone.
 */
export function appDeletionRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/apps/{appId}',
      operationId: 'deleteApp',
      tags: ['Apps'],
      summary: 'Delete an app',
      description:
        'Delete the app as an asynchronous job (P-13): new runs, messages and supplements are refused at once (409 `app-deleting`); its runs are stopped (cause `app-deleted`) and settle; its SDK runs and sessions, its files and its rows are deleted; shared resources stay. Idempotent; follow `GET /apps/{appId}/deletion`. An agent app that published workflow releases call is refused with 409 `app-in-use` and the list of those workflows (D-P4).',
      request: { params: appParameters },
      responses: {
        202: jsonResponse('The deletion job.', z.object({ deletion: deletionSchema })),
        409: errorResponse(
          'Refused. Codes: `app-in-use` (`error.details.workflows` lists `{appId, name, releaseVersions}` of the workflows whose releases call this agent).',
        ),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.delete');
      const services = c.get('services');
      const deletion = await requestAppDeletion(services, row, currentActor(c));
      if (deletion.step !== 'done') startDeletionJob(services, deletion.id);
      return c.json({ deletion: deletionView(deletion) }, 202);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/deletion',
      operationId: 'getAppDeletion',
      tags: ['Apps'],
      summary: 'Read the progress of an app deletion',
      description:
        'Progress of the app’s deletion: `stopping-runs` → `deleting-runs` → `deleting-files` → `removing-app` → `done`; null when none was asked for. Readable after the app is gone.',
      request: { params: appParameters },
      responses: {
        // A union with null, not `.nullable()`: that would be `allOf` of the reference and a null type, which no value matches.
        200: jsonResponse('The deletion, or null.', z.object({ deletion: z.union([deletionSchema, z.null()]) })),
      },
    }),
    async (c) => {
      const { appId } = c.req.valid('param');
      const { database } = c.get('services');
      requirePrincipal(c);
      const exists = await findApp(database, appId);
      if (exists) await authorizeApp(c, appId, 'apps.read');
      const deletion = await findDeletionOfApp(database, appId);
      if (!exists) {
        if (!deletion) throw notFound('The app');
        try {
          await authorizeSpace(c, deletion.space_id, 'apps.read');
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) throw notFound('The app');
          throw error;
        }
      }
      return c.json({ deletion: deletion ? deletionView(deletion) : null }, 200);
    },
  );

  return app;
}
