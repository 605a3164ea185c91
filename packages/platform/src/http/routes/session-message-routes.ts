import { z } from '@hono/zod-openapi';
import { apiRunStatuses, apiStatusOf } from '../../application/runs/run-status.js';
import { readSessionHistory } from '../../application/runs/session-history.js';
import { postSessionMessage } from '../../application/runs/session-message.js';
import { currentActor } from '../authentication.js';
import { authorizeSession } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import { idempotencyHeader, runLinks } from './run-routes.js';

const sessionParameters = z.object({ sessionId: idParameter('sessionId') });

const messageAccepted = z
  .discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('supplement'), runId: z.string(), supplementId: z.string(), sessionId: z.string() })
      .openapi('MessageSupplemented'),
    z
      .object({
        kind: z.literal('run'),
        runId: z.string(),
        sessionId: z.string(),
        status: z.string(),
        links: z.object({ self: z.string(), events: z.string(), stop: z.string() }),
      })
      .openapi('MessageStartedRun'),
  ])
  .openapi('MessageAccepted');

const historyRun = z
  .object({
    runId: z.string(),
    status: z.enum(apiRunStatuses),
    unfinished: z.boolean(),
    createdAt: z.string(),
    input: z.string().nullable(),
    supplements: z.array(
      z.object({ supplementId: z.string(), text: z.string(), status: z.enum(['consumed', 'pending', 'carried-over']) }),
    ),
    carriedIn: z.array(z.object({ supplementId: z.string(), text: z.string(), fromRunId: z.string() })),
    outcome: z.object({ status: z.string(), reason: z.string().nullable(), output: z.string().nullable() }).nullable(),
    messages: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi('HistoryRun');

/** The chat box and the raw record of a session (P-8.3, H-1): `/sessions/:sessionId/messages` and `/history`. */
export function sessionMessageRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/sessions/{sessionId}/messages',
      operationId: 'sendSessionMessage',
      tags: ['Sessions'],
      summary: 'Send a message to a chat session',
      errors: {
        409: ['run-active', 'app-deleting', 'session-kind-mismatch'],
        422: ['not-a-chat-app', 'idempotency-key-reused', 'invalid-run-request'],
      },
      description:
        'The chat box (P-8.3): while the session has an active (queued or running) run the text is a supplement of it; otherwise it starts a new run of the app with the text as input. The answer says which. A run that ends between the check and the supplement makes the text a new question. 409 `app-deleting` while the app is being deleted.',
      request: {
        params: sessionParameters,
        headers: idempotencyHeader,
        body: jsonBody(
          z
            .strictObject({
              text: z
                .string()
                .min(1)
                .max(100_000)
                .refine((text) => text.trim() !== '', 'the text must not be blank'),
            })
            .openapi('SessionMessage'),
        ),
      },
      responses: { 202: jsonResponse('Accepted: a supplement of the active run, or a new run.', messageAccepted) },
    }),
    async (c) => {
      const { session, app: appRow } = await authorizeSession(c, c.req.valid('param').sessionId);
      const services = c.get('services');
      const outcome = await postSessionMessage(
        services,
        appRow,
        session,
        currentActor(c),
        c.req.valid('json').text,
        c.req.valid('header')['idempotency-key'],
      );
      if (outcome.kind === 'supplement') {
        const { runId, supplementId, sessionId } = outcome;
        return c.json({ kind: 'supplement' as const, runId, supplementId, sessionId }, 202);
      }
      const status = outcome.replayed ? apiStatusOf(await services.runClient.describeRun(outcome.runId)) : 'queued';
      return c.json(
        { kind: 'run' as const, runId: outcome.runId, sessionId: outcome.sessionId, status, links: runLinks(outcome.runId) },
        202,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/sessions/{sessionId}/history',
      operationId: 'getSessionHistory',
      tags: ['Sessions'],
      summary: 'Read the history of a session',
      description:
        'The raw record of every run of the session, oldest first (H-1): its input, supplements (consumed, pending or carried over), supplements carried in, outcome and the entry role’s messages; unfinished runs are marked.',
      request: { params: sessionParameters },
      responses: { 200: jsonResponse('The record.', z.object({ sessionId: z.string(), runs: z.array(historyRun) })) },
    }),
    async (c) => {
      const { session } = await authorizeSession(c, c.req.valid('param').sessionId);
      const runs = await readSessionHistory(c.get('services'), session.id);
      return c.json({ sessionId: session.id, runs: runs as unknown as z.infer<typeof historyRun>[] }, 200);
    },
  );

  return app;
}
