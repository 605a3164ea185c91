import { z } from '@hono/zod-openapi';
import { a2aBasePath, readA2aExposure, setA2aExposure } from '../../application/a2a/a2a-exposure.js';
import { agentCardPath } from '../a2a/a2a-routes.js';
import { currentActor } from '../authentication.js';
import { authorizeApp } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';

const exposureSchema = z
  .object({
    enabled: z.boolean().openapi({ description: 'Whether the app is published over A2A (off by default).' }),
    cardPath: z.string().openapi({ description: 'Where its Agent Card is, below the server origin.' }),
    endpointPath: z
      .string()
      .openapi({ description: 'Its JSON-RPC endpoint (the card’s interface URL), below the server origin.' }),
    updatedBy: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .openapi('A2aExposure');

const parameters = z.object({ appId: idParameter('appId') });

function view(appId: string, exposure: { enabled: boolean; updatedBy: string | null; updatedAt: string | null }) {
  const base = a2aBasePath(appId);
  return { ...exposure, cardPath: `${base}${agentCardPath}`, endpointPath: base };
}

/**
 * `/apps/:appId/a2a`: the per-app switch that publishes an app over A2A 1.0 (issue 32). The A2A
 * surface itself (card and JSON-RPC) is outside this REST API, at `/a2a/apps/{appId}`: JSON-RPC
 * has one URL for every method, which OpenAPI cannot describe operation by operation (docs/a2a.md).
 */
export function appA2aRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/a2a',
      operationId: 'getAppA2a',
      tags: ['A2A'],
      summary: 'Whether the app is published over A2A.',
      description: 'The A2A switch of the app and the paths of its Agent Card and JSON-RPC endpoint (members who may read apps).',
      request: { params: parameters },
      responses: { 200: jsonResponse('The switch.', z.object({ a2a: exposureSchema })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      return c.json({ a2a: view(row.id, await readA2aExposure(c.get('services'), row.id)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/apps/{appId}/a2a',
      operationId: 'setAppA2a',
      tags: ['A2A'],
      summary: 'Publish the app over A2A, or stop publishing it.',
      description:
        'Switches A2A on or off (editors and above). On: the Agent Card at `/a2a/apps/{appId}/.well-known/agent-card.json` and the JSON-RPC endpoint answer, authenticated with the app’s API keys; off: both answer 404 `a2a-not-enabled`. Tasks are the app’s runs and stay readable over the REST API either way.',
      request: { params: parameters, body: jsonBody(z.strictObject({ enabled: z.boolean() }).openapi('SetA2aExposure')) },
      responses: { 200: jsonResponse('The switch as it is now.', z.object({ a2a: exposureSchema })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.manage');
      const exposure = await setA2aExposure(c.get('services'), row, c.req.valid('json').enabled, currentActor(c));
      return c.json({ a2a: view(row.id, exposure) }, 200);
    },
  );

  return app;
}
