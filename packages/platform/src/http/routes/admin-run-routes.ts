import { z } from '@hono/zod-openapi';
import { listStuckRuns } from '../../application/runs/stuck-runs.js';
import { requireInstanceAdmin } from '../authentication.js';
import { apiRoute, createSubApp, jsonResponse } from '../openapi.js';

const stuckRunSchema = z
  .object({
    runId: z.string(),
    appId: z.string(),
    spaceId: z.string(),
    sessionId: z.string(),
    kind: z.enum(['agent', 'workflow']),
    status: z.enum(['pending', 'running']),
    reason: z.enum(['lease-expired', 'never-claimed']).openapi({
      description:
        '`lease-expired`: running, but no worker renewed its lease for two lease lengths (its worker died or hangs); `never-claimed`: no worker took it within two lease lengths (none running, or none with the isolation it needs).',
    }),
    idleSince: z.string(),
    createdAt: z.string(),
  })
  .openapi('StuckRun');

/** `GET /admin/runs?state=stuck` (PLATFORM.md §4.4 operations): runs that need attention, across spaces (instance admins). */
export function adminRunRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/admin/runs',
      operationId: 'listStuckRuns',
      tags: ['Workers'],
      summary: 'List stuck runs',
      description:
        'Runs the sweeper is handling or that need attention (instance admins): running without a renewed lease, or never claimed, for more than two lease lengths; oldest idle first, read from the SDK store.',
      request: {
        query: z.object({
          state: z.enum(['stuck']).default('stuck').openapi({ description: 'Only `stuck` (the default) for now.' }),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
      },
      responses: { 200: jsonResponse('The stuck runs.', z.object({ runs: z.array(stuckRunSchema) })) },
    }),
    async (c) => {
      requireInstanceAdmin(c, 'see stuck runs');
      return c.json({ runs: await listStuckRuns(c.get('services'), c.req.valid('query').limit) }, 200);
    },
  );
  return app;
}
