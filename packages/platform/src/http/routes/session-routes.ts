import { z } from '@hono/zod-openapi';
import { listAppSessions } from '../../adapters/database/repositories/session-repository.js';
import type { SessionRow } from '../../adapters/database/schema.js';
import { apiStatusOf } from '../../application/runs/run-status.js';
import { createEmptySession, renameSession } from '../../application/sessions/index.js';
import { currentActor } from '../authentication.js';
import { authorizeAppUse, authorizeSession } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';

const sessionSchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    title: z.string().nullable(),
    externalUserId: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    lastRunAt: z.string(),
  })
  .openapi('Session');

/** A session row as the API shows it. */
function sessionView(session: SessionRow): z.infer<typeof sessionSchema> {
  return {
    id: session.id,
    appId: session.app_id,
    title: session.title ?? null,
    externalUserId: session.external_user_id ?? null,
    createdBy: session.created_by,
    createdAt: session.created_at,
    lastRunAt: session.last_run_at,
  };
}

const createSessionBody = z
  .strictObject({
    title: z.string().trim().min(1).max(200).optional(),
    externalUserId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'The integration’s own id of its end user; kept with the session.' }),
  })
  .openapi('CreateSession');
const renameSessionBody = z
  .strictObject({ title: z.string().trim().min(1).max(200).nullable().openapi({ description: '`null` clears the title.' }) })
  .openapi('RenameSession');

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
      return c.json({ sessions: rows.map(sessionView) }, 200);
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
      return c.json({ session: sessionView(session), runs }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/sessions',
      operationId: 'createSession',
      tags: ['Sessions'],
      summary: 'Create an empty session',
      description:
        'A session before its first run, to have its id first: start runs (`sessionId`) or send messages to it later. It is its creator’s (viewers and app keys see only their own).',
      errors: { 409: ['app-deleting'], 422: ['router-sessions'] },
      request: { params: z.object({ appId: idParameter('appId') }), body: jsonBody(createSessionBody) },
      responses: { 201: jsonResponse('Created.', z.object({ session: sessionSchema })) },
    }),
    async (c) => {
      const { app: row } = await authorizeAppUse(c, c.req.valid('param').appId);
      const session = await createEmptySession(c.get('services'), row, currentActor(c), c.req.valid('json'));
      return c.json({ session: sessionView(session) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'patch',
      path: '/sessions/{sessionId}',
      operationId: 'renameSession',
      tags: ['Sessions'],
      summary: 'Rename a session',
      description: 'Sets (or with `null` clears) the session’s title; its runs are untouched.',
      request: { params: z.object({ sessionId: idParameter('sessionId') }), body: jsonBody(renameSessionBody) },
      responses: { 200: jsonResponse('Renamed.', z.object({ session: sessionSchema })) },
    }),
    async (c) => {
      const { session } = await authorizeSession(c, c.req.valid('param').sessionId);
      const renamed = await renameSession(c.get('services'), session, c.req.valid('json').title);
      return c.json({ session: sessionView(renamed) }, 200);
    },
  );

  return app;
}
