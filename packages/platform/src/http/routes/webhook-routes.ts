import { z } from '@hono/zod-openapi';
import { findWebhookDelivery } from '../../adapters/database/repositories/run-repository.js';
import { readWebhookSecret, rotateWebhookSecret, webhookDeliveryView } from '../../application/webhooks/index.js';
import { ApiError } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeRun } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';

const appParameters = z.object({ appId: idParameter('appId') });
const runParameters = z.object({ runId: idParameter('runId') });
const deliverySchema = z
  .object({
    id: z.string(),
    url: z.string(),
    state: z.enum(['waiting', 'delivered', 'failed']),
    attempts: z.array(
      z.object({
        at: z.string(),
        status: z.number().optional(),
        error: z.string().optional(),
        code: z.string().optional().openapi({ description: 'The typed reason of a try without an answer (`egress-denied` …).' }),
        rule: z.string().optional().openapi({ description: 'For `egress-denied`: the egress rule that refused the URL.' }),
      }),
    ),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi('WebhookDelivery');

/**
 * Completion webhooks (issue 14): an app's signing secret (made or replaced by an admin, shown
 * once) and the delivery a run owes, with every try, so a caller that submitted and went away
 * can see whether it was told.
 */
export function webhookRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/webhook-secret',
      operationId: 'rotateWebhookSecret',
      tags: ['Webhooks'],
      summary: 'Make the webhook signing secret',
      description: "Make or replace the app's webhook signing secret; it is in this response only.",
      request: { params: appParameters },
      responses: { 201: jsonResponse('Made.', z.object({ secret: z.string() }).openapi('WebhookSecret')) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'app-keys.manage');
      return c.json({ secret: await rotateWebhookSecret(c.get('services'), row.id, currentActor(c)) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/webhook-secret',
      operationId: 'getWebhookSecretStatus',
      tags: ['Webhooks'],
      summary: 'Read whether a webhook secret exists',
      description: 'Whether the app has a webhook signing secret (never the secret).',
      request: { params: appParameters },
      responses: { 200: jsonResponse('The state.', z.object({ configured: z.boolean() })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'app-keys.manage');
      return c.json({ configured: (await readWebhookSecret(c.get('services'), row.id)) !== undefined }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/webhook',
      operationId: 'getRunWebhookDelivery',
      tags: ['Webhooks'],
      summary: "Read a run's webhook delivery",
      errors: { 404: ['no-webhook'] },
      description: "The run's completion webhook delivery and its tries; 404 `no-webhook` when the run asked for none.",
      request: { params: runParameters },
      responses: { 200: jsonResponse('The delivery.', z.object({ delivery: deliverySchema })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      const row = await findWebhookDelivery(c.get('services').database, run.id);
      if (!row) throw new ApiError(404, 'no-webhook', 'The run asked for no webhook.');
      return c.json({ delivery: webhookDeliveryView(row) }, 200);
    },
  );

  return app;
}
