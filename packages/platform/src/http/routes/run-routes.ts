import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { startAppRun } from '../../application/runs/create-run.js';
import {
  decideRunApproval,
  describeRun,
  readAgentTaskView,
  readRunDetails,
  readRunLog,
  readRunView,
  runStatus,
  supplementRun,
  waitForRunEnd,
} from '../../application/runs/run-service.js';
import { runView } from '../../application/runs/run-status.js';
import { stopRun } from '../../application/runs/stop-runs.js';
import { ApiError } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeAppUse, authorizeRun } from '../authorization.js';
import { refuseDeniedUrl } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import type { PlatformEnvironment } from '../services.js';
import { resumeSequenceOf, streamRunEvents } from '../sse.js';
import {
  accepted,
  lastEventIdHeader,
  listRunsRoute,
  runEventComponents,
  runEventStream,
  runParameters,
  runSchema,
  startRunRoute,
} from './run-schemas.js';

export { idempotencyHeader, runLinks } from './run-schemas.js';

function sseOr400(c: Context<PlatformEnvironment>, runId: string, after: number | undefined): Promise<Response> {
  const sequence = resumeSequenceOf(c.req.header('last-event-id'), after);
  if (sequence === 'invalid')
    throw new ApiError(400, 'invalid-last-event-id', 'Last-Event-ID must be an event id (a sequence number).');
  return streamRunEvents(c, c.get('services').runClient, runId, sequence);
}

/**
 * Debug runs of the draft are for console editors only (PLATFORM.md §4.4): a signed-in user who
 * may edit the app. API keys get 403, like a viewer.
 */
async function authorizeDebugRun(c: Context<PlatformEnvironment>, appId: string) {
  const principal = c.get('principal');
  if (principal?.kind === 'app-key' || principal?.kind === 'space-key') {
    await authorizeAppUse(c, appId);
    throw new ApiError(403, 'forbidden', 'Debug runs of the draft are for editors signed in to the console, not API keys.');
  }
  return authorizeApp(c, appId, 'apps.manage');
}

/**
 * Runs over HTTP (PLATFORM.md §4.4): start a run of an app (async, stream or blocking; with an
 * Idempotency-Key), read it, follow its events over SSE with replay, stop it, add supplements,
 * decide approvals, read its view. Every status comes from the SDK store through `RunClient`.
 */
export function runRoutes() {
  const app = createSubApp();
  for (const [name, schema] of Object.entries(runEventComponents()))
    app.openAPIRegistry.registerComponent('schemas', name, schema);

  app.openapi(startRunRoute, async (c) => {
    const body = c.req.valid('json');
    // Before anything else (P-15.1): a webhook to an address the egress policy refuses is never recorded.
    refuseDeniedUrl(c.get('services'), 'webhook.url', body.webhook?.url);
    // Debug runs are for editors, who see every session of the app (D-P6).
    const { app: row, seesAllSessions } =
      body.release === 'draft'
        ? { ...(await authorizeDebugRun(c, c.req.valid('param').appId)), seesAllSessions: true }
        : await authorizeAppUse(c, c.req.valid('param').appId);
    const services = c.get('services');
    const started = await startAppRun(
      services,
      row,
      currentActor(c),
      { ...body, webhookUrl: body.webhook?.url },
      c.req.valid('header')['idempotency-key'],
      { seesAllSessions },
    );
    if (body.mode === 'stream') return (await sseOr400(c, started.runId, 0)) as never;
    if (body.mode === 'blocking' && (await waitForRunEnd(services, started.runId, c.req.valid('query').wait ?? 30)))
      return c.json({ run: await readRunView(services, started.runId) }, 200);
    // A run created just now is queued by construction; a replayed key reports the run as it is now.
    const status = started.created ? 'queued' : await runStatus(services, started.runId);
    return c.json(accepted(started.runId, started.sessionId, status), 202);
  });

  app.openapi(listRunsRoute, async (c) => {
    const { app: row } = await authorizeAppUse(c, c.req.valid('param').appId, 'runs.log');
    return c.json(await readRunLog(c.get('services'), row.id, c.req.valid('query')), 200);
  });

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}',
      operationId: 'getRun',
      tags: ['Runs'],
      summary: 'Read a run',
      description: 'Status, result, terminal reason, owner and usage of a run, as the SDK store holds them now.',
      request: { params: runParameters },
      responses: { 200: jsonResponse('The run.', z.object({ run: runSchema })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      return c.json({ run: runView(run, await describeRun(c.get('services'), run.id)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/view',
      operationId: 'getRunView',
      tags: ['Runs'],
      summary: 'Read the run view',
      description:
        'The run view (P-10): tasks, loops, operations, compressions and decisions, from `RunClient.describeRun`. A workflow run adds `workflow.tasks`: each node task with its superstep, status (`running`, `waiting-input`, `succeeded`, `failed`, `interrupted`), failure and, for an agent node, its inner `agentRunId` (see `/runs/{runId}/agent-view`).',
      request: { params: runParameters },
      responses: { 200: jsonResponse('The view.', z.object({ view: z.record(z.string(), z.unknown()) })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      return c.json({ view: await readRunDetails(c.get('services'), run.id) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/agent-view',
      operationId: 'getAgentTaskView',
      tags: ['Runs'],
      summary: 'Read the run view of an agent node',
      errors: { 400: ['task-id-required'], 404: ['task-not-found'] },
      description:
        'Drill into an agent node of a workflow run: the run view of the inner agent run of task `taskId` (e.g. `1/summarize`). Inner runs are not runs of the platform (NOT-24): they are reached through their workflow run only. 404 `task-not-found` when the run has no such agent task.',
      request: {
        params: runParameters,
        // Checked after authorisation, so that a caller without access learns nothing from a 400.
        query: z.object({ taskId: z.string().max(300).optional().openapi({ description: 'Required: the task id.' }) }),
      },
      responses: { 200: jsonResponse('The inner run view.', z.object({ view: z.record(z.string(), z.unknown()) })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      return c.json({ view: await readAgentTaskView(c.get('services'), run.id, c.req.valid('query').taskId) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/events',
      operationId: 'streamRunEvents',
      tags: ['Runs'],
      summary: 'Follow run events',
      errors: { 400: ['invalid-last-event-id'] },
      description:
        'Server-Sent Events of the run: `id:` is the journal sequence; resume with `Last-Event-ID` or `?after=`; a ping every 15 s; closed after the terminal event.',
      request: {
        params: runParameters,
        query: z.object({ after: z.coerce.number().int().min(0).optional() }),
        headers: lastEventIdHeader,
      },
      responses: {
        200: {
          description:
            "The event stream: each message's `event:` is the event's `type`, its `data:` one `RunEvent` (JSON; the SDK's `runEventSchema`), its `id:` the `sequence`.",
          content: runEventStream,
        },
      },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      return (await sseOr400(c, run.id, c.req.valid('query').after)) as never;
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/stop',
      operationId: 'stopRun',
      tags: ['Runs'],
      summary: 'Stop a run',
      description:
        'Stop the run: durable and idempotent, with or without a client attached, queued, running or orphaned (D-P10). Calls in flight settle; their results are kept.',
      request: { params: runParameters },
      responses: {
        202: jsonResponse('Stop recorded (or the run had already ended).', z.object({ runId: z.string(), status: z.string() })),
      },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      const services = c.get('services');
      await stopRun(services, run.id, 'user', currentActor(c));
      return c.json({ runId: run.id, status: await runStatus(services, run.id) }, 202);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/supplements',
      operationId: 'addRunSupplement',
      tags: ['Runs'],
      summary: 'Add a supplement to a run',
      errors: { 409: ['run-not-active', 'app-deleting'] },
      description:
        'Add a user message to an active run (S-1…S-4): 202 with its id; 409 `run-not-active` once the run ended, 409 `app-deleting` while its app is being deleted.',
      request: {
        params: runParameters,
        body: jsonBody(z.strictObject({ text: z.string().min(1).max(100_000) }).openapi('Supplement')),
      },
      responses: { 202: jsonResponse('Accepted.', z.object({ runId: z.string(), supplementId: z.string() })) },
    }),
    async (c) => {
      const { run, app: appRow } = await authorizeRun(c, c.req.valid('param').runId);
      return c.json(await supplementRun(c.get('services'), appRow, run.id, c.req.valid('json').text), 202);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/approvals/{approvalId}',
      operationId: 'decideRunApproval',
      tags: ['Runs'],
      summary: 'Decide an approval',
      errors: { 404: ['approval-not-found'], 409: ['run-not-active'] },
      description: 'Decide a pending approval (K-5); the first decision wins.',
      request: {
        params: runParameters.extend({ approvalId: idParameter('approvalId') }),
        body: jsonBody(
          z.strictObject({ approved: z.boolean(), reason: z.string().max(2000).optional() }).openapi('ApprovalDecision'),
        ),
      },
      responses: { 200: jsonResponse('Recorded.', z.object({ runId: z.string(), sequence: z.number() })) },
    }),
    async (c) => {
      const { runId, approvalId } = c.req.valid('param');
      const { run } = await authorizeRun(c, runId);
      const body = c.req.valid('json');
      const recorded = await decideRunApproval(c.get('services'), run.id, {
        approvalId,
        approved: body.approved,
        decidedBy: currentActor(c),
        reason: body.reason,
      });
      return c.json(recorded, 200);
    },
  );

  return app;
}
