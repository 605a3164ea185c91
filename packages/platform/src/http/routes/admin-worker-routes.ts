import { z } from '@hono/zod-openapi';
import { WorkerRegistry } from '../../adapters/database/repositories/worker-registry.js';
import type { WorkerRow } from '../../adapters/database/schema.js';
import { ApiError, notFound } from '../api-error.js';
import { requireInstanceAdmin } from '../authentication.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';

const workerSchema = z
  .object({
    id: z.string(),
    host: z.string(),
    version: z.string(),
    capabilities: z.object({ isolation: z.boolean() }),
    maxConcurrentRuns: z.number().int(),
    /** Run jobs the worker holds now. */
    runs: z.number().int(),
    startedAt: z.string(),
    heartbeatAt: z.string(),
    state: z.enum(['active', 'draining', 'gone']),
  })
  .openapi('Worker');

function workerView(row: WorkerRow, runs: number): z.infer<typeof workerSchema> {
  const capabilities = JSON.parse(row.capabilities) as { isolation?: unknown };
  return {
    id: row.id,
    host: row.host,
    version: row.version,
    capabilities: { isolation: capabilities.isolation === true },
    maxConcurrentRuns: row.max_concurrent_runs,
    runs,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    state: row.state,
  };
}

/**
 * `/admin/workers` (PLATFORM.md §4.4 operations): the worker list and drain before a deploy.
 * Workers serve every space, so only instance administrators (D-P6) see or drain them.
 */
export function adminWorkerRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/admin/workers',
      operationId: 'listWorkers',
      tags: ['Workers'],
      summary: 'List workers',
      description: 'List workers: capabilities, heartbeat, state and runs held (instance admins).',
      responses: { 200: jsonResponse('Workers, newest first.', z.object({ workers: z.array(workerSchema) })) },
    }),
    async (c) => {
      requireInstanceAdmin(c, 'see workers');
      const { database, now } = c.get('services');
      const rows = await new WorkerRegistry(database, now).list();
      return c.json({ workers: rows.map((row) => workerView(row, row.runs)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/admin/workers/{workerId}/drain',
      operationId: 'drainWorker',
      tags: ['Workers'],
      summary: 'Drain a worker',
      errors: { 409: ['worker-gone'] },
      description:
        'Drain a worker (instance admins): at its next heartbeat it stops claiming, hands each run over to another worker at once and ends `gone`. Idempotent.',
      request: { params: z.object({ workerId: idParameter('workerId') }) },
      responses: {
        202: jsonResponse('Draining (or already draining).', z.object({ worker: workerSchema })),
      },
    }),
    async (c) => {
      requireInstanceAdmin(c, 'drain workers');
      const { workerId } = c.req.valid('param');
      const { database, now } = c.get('services');
      const registry = new WorkerRegistry(database, now);
      const row = await registry.requestDrain(workerId);
      if (!row) throw notFound('The worker');
      if (row.state === 'gone')
        throw new ApiError(409, 'worker-gone', `The worker ${workerId} has stopped; there is nothing to drain.`);
      const runs = (await registry.list()).find((worker) => worker.id === workerId)?.runs ?? 0;
      return c.json({ worker: workerView(row, runs) }, 202);
    },
  );

  return app;
}
