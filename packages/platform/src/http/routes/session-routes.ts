import { z } from '@hono/zod-openapi';
import { listAppSessions } from '../../adapters/database/repositories/session-repository.js';
import { apiStatusOf } from '../../application/runs/run-status.js';
import { currentActor } from '../authentication.js';
import { authorizeAppUse, authorizeSession } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';

const sessionSchema = z
  .object({ id: z.string(), appId: z.string(), createdBy: z.string(), createdAt: z.string(), lastRunAt: z.string() })
  .openapi('Session');

/** `/apps/:appId/sessions` and `/sessions/:sessionId`: an app's conversations and their runs (P-9). */
export function sessionRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/sessions',
      operationId: 'listSessions',
      tags: ['Sessions'],
      summary: 'List sessions',
      description: 'The app’s sessions, most recently active first.',
      request: {
        params: z.object({ appId: idParameter('appId') }),
        query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
      },
      responses: { 200: jsonResponse('Sessions.', z.object({ sessions: z.array(sessionSchema) })) },
    }),
    async (c) => {
      const { app: row, seesAllSessions } = await authorizeAppUse(c, c.req.valid('param').appId);
      // Debug sessions of the editor's draft runs are never listed with the app's sessions; viewers
      // and app keys list the sessions they started (D-P6).
      const rows = await listAppSessions(c.get('services').database, row.id, {
        createdBy: seesAllSessions ? undefined : currentActor(c),
        limit: c.req.valid('query').limit,
      });
      return c.json(
        {
          sessions: rows.map((session) => ({
            id: session.id,
            appId: session.app_id,
            createdBy: session.created_by,
            createdAt: session.created_at,
            lastRunAt: session.last_run_at,
          })),
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/sessions/{sessionId}',
      operationId: 'getSession',
      tags: ['Sessions'],
      summary: 'Read a session',
      description: 'A session and its runs (newest first) with their inputs and outcomes, from the SDK store.',
      request: { params: z.object({ sessionId: idParameter('sessionId') }) },
      responses: {
        200: jsonResponse('The session.', z.object({ session: sessionSchema, runs: z.array(z.record(z.string(), z.unknown())) })),
      },
    }),
    async (c) => {
      const { session } = await authorizeSession(c, c.req.valid('param').sessionId);
      const { runClient } = c.get('services');
      const page = await runClient.listRuns({ sessionId: session.id, limit: 200 });
      const runs = [];
      for (const item of page.items) {
        const description = await runClient.describeRun(item.runId);
        runs.push({
          id: item.runId,
          status: apiStatusOf(description),
          input: description.input ?? null,
          output: description.result?.output ?? null,
          reason: description.reason ?? null,
          createdAt: new Date(item.createdAt).toISOString(),
        });
      }
      return c.json(
        {
          session: {
            id: session.id,
            appId: session.app_id,
            createdBy: session.created_by,
            createdAt: session.created_at,
            lastRunAt: session.last_run_at,
          },
          runs,
        },
        200,
      );
    },
  );

  return app;
}
