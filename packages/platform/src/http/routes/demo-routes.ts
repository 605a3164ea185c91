import { z } from '@hono/zod-openapi';
import { findSpace } from '../../adapters/database/repositories/space-repository.js';
import { demoFacts } from '../../application/seed/demo-content.js';
import { demoModeOf } from '../../config/index.js';
import { ApiError, notFound } from '../api-error.js';
import { requireInstanceAdmin } from '../authentication.js';
import { authorizeRun } from '../authorization.js';
import { apiRoute, createSubApp, jsonResponse } from '../openapi.js';
import { runParameters } from './run-schemas.js';

const lookupBody = z.strictObject({ topic: z.string().min(1).max(200) }).openapi('DemoLookupRequest');
const lookupAnswer = z
  .object({ topic: z.string(), facts: z.array(z.string()), servedBy: z.literal('agentloom-demo-endpoint') })
  .openapi('DemoLookup');
const crashAnswer = z
  .object({
    runId: z.string(),
    workerId: z.string().openapi({ description: 'The worker that owned the run and was killed.' }),
    pid: z.number().int().openapi({ description: 'Its process id, SIGKILLed.' }),
  })
  .openapi('WorkerCrash');

/**
 * The demo's routes (issue 35, ADR 0034): the platform's own demo endpoint the seeded HTTP tool
 * calls, and "Crash the worker", which SIGKILLs the embedded default's worker process that owns
 * a run of the Demo space so that a newcomer sees another worker take the same run over.
 */
export function demoRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/demo/lookup',
      operationId: 'demoLookup',
      tags: ['Demo'],
      summary: 'Look a topic up (demo endpoint)',
      description:
        "The demo HTTP tool's endpoint (demo mode only: the embedded default with the Demo space): static facts about a topic. Public, since the tool calls it without credentials; it reads and writes nothing. 404 when demo mode is off.",
      public: true,
      request: { body: { content: { 'application/json': { schema: lookupBody } }, required: true } },
      responses: { 200: jsonResponse('What the demo knows about the topic.', lookupAnswer) },
    }),
    async (c) => {
      if (!demoModeOf(c.get('services').config)) throw notFound('The demo endpoint');
      const { topic } = c.req.valid('json');
      const facts = demoFacts[topic.toLowerCase()] ?? [`The demo endpoint knows nothing about "${topic}" yet.`];
      return c.json({ topic, facts, servedBy: 'agentloom-demo-endpoint' as const }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/crash-worker',
      operationId: 'crashRunWorker',
      tags: ['Demo'],
      summary: 'Crash the worker of a demo run',
      errors: { 409: ['not-a-demo-run', 'crash-unavailable', 'run-not-executing'] },
      description:
        'SIGKILLs the worker process that executes the run now (instance admins, runs of the Demo space, the embedded default). A fresh worker process starts at once and takes the same run over once its lease ends; saved steps are not redone. 409 `not-a-demo-run` outside the Demo space, `crash-unavailable` when this server runs no worker process of its own, `run-not-executing` when no worker of it executes the run now (queued, waiting or ended).',
      request: { params: runParameters },
      responses: { 202: jsonResponse('The worker was killed; another takes the run over.', crashAnswer) },
    }),
    async (c) => {
      requireInstanceAdmin(c, 'crash a worker');
      const { run, app: runApp } = await authorizeRun(c, c.req.valid('param').runId);
      const services = c.get('services');
      const space = await findSpace(services.database, runApp.space_id);
      if (space?.demo !== 1)
        throw new ApiError(409, 'not-a-demo-run', 'Only runs of the Demo space can have their worker crashed.');
      const control = services.workerProcesses;
      if (!control)
        throw new ApiError(
          409,
          'crash-unavailable',
          'This server runs no worker process of its own (only the embedded default does).',
        );
      const owner = control.crashOwnerOf(run.id);
      if (!owner) throw new ApiError(409, 'run-not-executing', 'No worker of this server executes the run now.');
      return c.json({ runId: run.id, ...owner }, 202);
    },
  );

  return app;
}
