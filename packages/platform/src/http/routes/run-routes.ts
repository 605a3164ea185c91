import { ApprovalNotFoundError, RunNotActiveError, RunNotFoundError, runEventSchema } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { startAppRun } from '../../runs/create-run.js';
import { runLogPage } from '../../runs/run-log.js';
import { apiStatusOf, runView } from '../../runs/run-status.js';
import { resumeSequenceOf, streamRunEvents } from '../../runs/sse.js';
import { stopRun } from '../../runs/stop-runs.js';
import { agentRunOfTask, describeWorkflowTasks } from '../../runs/workflow-view.js';
import { ApiError, notFound } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeAppUse, authorizeRun } from '../authorization.js';
import { refuseDeniedUrl } from '../egress-refusal.js';
import { apiRoute, createSubApp, errorResponse, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import type { PlatformEnvironment, PlatformServices } from '../services.js';

const runParameters = z.object({ runId: idParameter('runId') });
const appParameters = z.object({ appId: idParameter('appId') });
/** The optional `Idempotency-Key` header of the use routes that create something. */
export const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'an Idempotency-Key is 1–200 visible ASCII characters')
    .optional()
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      description: 'Idempotency-Key: the same key and body answer the first run.',
    }),
});

/**
 * The `data:` of each message of a run's event stream: one `RunEvent` of the SDK's `runEventSchema`
 * (the run contract's single source, ADR 0020), an agent run's or a workflow run's event, each of
 * the two a union discriminated by `type`. Its JSON Schema (the same as `run-event.schema.json`)
 * becomes the document's components as it is: the OpenAPI generator would flatten the union of
 * unions, losing which engine an event type belongs to (three types exist in both).
 */
function runEventComponents(): Record<string, Record<string, unknown>> {
  const { $defs } = z.toJSONSchema(runEventSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' });
  return JSON.parse(JSON.stringify($defs).replaceAll('"#/$defs/', '"#/components/schemas/'));
}
const runEventStream = { 'text/event-stream': { schema: { $ref: '#/components/schemas/RunEvent' } } };

const runSchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    sessionId: z.string(),
    releaseId: z.string().nullable(),
    status: z.enum(['queued', 'running', 'stopping', 'succeeded', 'failed', 'stopped']),
    reason: z.string().nullable(),
    stopCause: z.string().nullable(),
    output: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .nullable()
      .openapi({ description: "An agent's answer (text); a workflow's output fields (an object)." }),
    owner: z.object({ ownerId: z.string(), epoch: z.number(), leaseExpiresAt: z.number(), live: z.boolean() }).nullable(),
    usage: z.record(z.string(), z.unknown()),
    loops: z.number(),
    lastSequence: z.number(),
    createdAt: z.string(),
  })
  .openapi('Run');
const acceptedSchema = z
  .object({
    runId: z.string(),
    sessionId: z.string(),
    status: z.string(),
    links: z.object({ self: z.string(), events: z.string(), stop: z.string() }),
  })
  .openapi('RunAccepted');
const startBody = z
  .strictObject({
    sessionId: z.string().min(1).max(100).optional(),
    input: z.union([z.string().min(1).max(100_000), z.record(z.string().max(200), z.unknown())]).openapi({
      description:
        'Text for an agent app; for a workflow app an object: the values of its state fields (e.g. `{"question": "…"}`).',
    }),
    variables: z.record(z.string().max(200), z.string().max(10_000)).optional(),
    mode: z.enum(['async', 'stream', 'blocking']).default('async'),
    webhook: z
      .strictObject({
        url: z.url({ error: 'a webhook url is an absolute http(s) URL' }).max(2_000),
      })
      .optional()
      .openapi({
        description:
          'POSTs `{ type: "run.finished", run }` to `url` when the run ends, signed with the app\'s webhook secret (`AgentLoom-Signature`), retried with back-off; see `GET /runs/{runId}/webhook`.',
      }),
    releaseVersion: z.number().int().positive().optional().openapi({
      description:
        'Workflow apps only: run this release (D-P1). Absent: the newest release when a worker starts the run. Agent runs always use the newest release (422 `release-pin-not-allowed`).',
    }),
    release: z.enum(['latest', 'draft']).default('latest').openapi({
      description:
        '`draft`: a debug run of the saved draft (an immutable snapshot of it) in a debug session, for signed-in editors in the console only.',
    }),
  })
  .openapi('StartRun');

/** The links of a run: itself, its event stream, its stop. */
export function runLinks(runId: string) {
  const self = `/api/v1/runs/${runId}`;
  return { self, events: `${self}/events`, stop: `${self}/stop` };
}

function accepted(runId: string, sessionId: string, status: string) {
  return { runId, sessionId, status, links: runLinks(runId) };
}

/** Maps the SDK's refusals to typed API errors; anything else propagates. */
function sdkError(error: unknown): never {
  if (error instanceof RunNotActiveError)
    throw new ApiError(409, 'run-not-active', 'The run has ended.', { status: error.status });
  if (error instanceof ApprovalNotFoundError) throw new ApiError(404, 'approval-not-found', 'The run has no such approval.');
  if (error instanceof RunNotFoundError) throw notFound('The run');
  throw error;
}

/**
 * What the SDK store says of a run now. A workflow keeps its output fields in its journal's end
 * record, not in the run's result: a succeeded workflow run's output is read from there.
 */
async function describe(services: PlatformServices, runId: string) {
  const description = await services.runClient.describeRun(runId).catch(sdkError);
  if (description.kind !== 'workflow' || description.status !== 'succeeded' || !description.result) return description;
  const events = await services.runClient.readEvents(runId, { afterSequence: description.lastSequence - 1 }).catch(sdkError);
  const finish = events.find((event) => event.type === 'workflow-finish');
  if (finish?.type !== 'workflow-finish' || finish.result.output === undefined) return description;
  return { ...description, result: { ...description.result, output: finish.result.output as unknown as string } };
}

/** Waits up to `seconds` for the run to end, by following its journal; answers whether it ended. */
async function waitForEnd(services: PlatformServices, runId: string, seconds: number): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), seconds * 1000);
  try {
    for await (const event of services.runClient.follow(runId, { signal: abort.signal }))
      if (event.type === 'run-finish' || event.type === 'workflow-finish') return true;
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function sseOr400(c: Context<PlatformEnvironment>, runId: string, after: number | undefined): Response {
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

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/runs',
      summary:
        'Start a run: `async` → 202 with the run id; `stream` → SSE; `blocking` → waits up to `?wait=` seconds (≤ 60), 200 when it ended, else 202. 409 `run-active` when the session has an active run.',
      request: {
        params: appParameters,
        query: z.object({ wait: z.coerce.number().int().min(1).max(60).optional() }),
        headers: idempotencyHeader,
        body: jsonBody(startBody),
      },
      responses: {
        200: {
          description: 'Blocking: the run ended (its view); stream: `text/event-stream` of `RunEvent`s.',
          content: { 'application/json': { schema: z.object({ run: runSchema }) }, ...runEventStream },
        },
        202: jsonResponse('Accepted: the run is queued or running.', acceptedSchema),
        422: errorResponse('`webhook.url` is refused by the egress policy (`egress-denied`), among other typed refusals.'),
      },
    }),
    async (c) => {
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
      if (body.mode === 'stream') return sseOr400(c, started.runId, 0) as never;
      if (body.mode === 'blocking' && (await waitForEnd(services, started.runId, c.req.valid('query').wait ?? 30))) {
        const runRow = await services.database
          .selectFrom('runs')
          .selectAll()
          .where('id', '=', started.runId)
          .executeTakeFirstOrThrow();
        return c.json({ run: runView(runRow, await describe(services, started.runId)) }, 200);
      }
      // A run created just now is queued by construction; a replayed key reports the run as it is now.
      const status = started.created ? 'queued' : apiStatusOf(await describe(services, started.runId));
      return c.json(accepted(started.runId, started.sessionId, status), 202);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/runs',
      summary: 'The app’s run log, newest first, from the SDK store (editors and above).',
      request: {
        params: appParameters,
        query: z.object({
          status: z.enum(['pending', 'running', 'succeeded', 'failed', 'stopped']).optional(),
          sessionId: z.string().min(1).max(100).optional(),
          limit: z.coerce.number().int().min(1).max(200).optional(),
          cursor: z.string().max(500).optional(),
          debug: z.enum(['exclude', 'include', 'only']).default('exclude').openapi({
            description:
              "Debug runs of the draft (`release: 'draft'`): left out by default, so the log shows the app's real use; `include` lists them too (each marked `debug: true`), `only` lists nothing else.",
          }),
        }),
      },
      responses: {
        200: jsonResponse(
          'One page of runs.',
          z.object({ runs: z.array(z.record(z.string(), z.unknown())), nextCursor: z.string().optional() }),
        ),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeAppUse(c, c.req.valid('param').appId, 'runs.log');
      const query = c.req.valid('query');
      const page = await runLogPage(c.get('services').runClient, row.id, query).catch((error: unknown) => {
        throw new ApiError(400, 'invalid-cursor', (error as Error).message);
      });
      return c.json(
        {
          runs: page.items.map((item) => ({
            id: item.runId,
            sessionId: item.sessionId,
            status: apiStatusOf({ status: item.status }),
            reason: item.result?.reason ?? null,
            loops: item.loops,
            debug: item.metadata.debug === 'true',
            createdAt: new Date(item.createdAt).toISOString(),
            updatedAt: new Date(item.updatedAt).toISOString(),
          })),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}',
      summary: 'Status, result, terminal reason, owner and usage of a run, as the SDK store holds them now.',
      request: { params: runParameters },
      responses: { 200: jsonResponse('The run.', z.object({ run: runSchema })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      return c.json({ run: runView(run, await describe(c.get('services'), run.id)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/view',
      summary:
        'The run view (P-10): tasks, loops, operations, compressions and decisions, from `RunClient.describeRun`. A workflow run adds `workflow.tasks`: each node task with its superstep, status (`running`, `succeeded`, `failed`, `interrupted`), failure and, for an agent node, its inner `agentRunId` (see `/runs/{runId}/agent-view`).',
      request: { params: runParameters },
      responses: { 200: jsonResponse('The view.', z.object({ view: z.record(z.string(), z.unknown()) })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      const services = c.get('services');
      const description = await describe(services, run.id);
      if (description.kind !== 'workflow') return c.json({ view: description as unknown as Record<string, unknown> }, 200);
      const tasks = await describeWorkflowTasks(services.runClient, run.id).catch(sdkError);
      return c.json({ view: { ...description, workflow: { tasks } } as unknown as Record<string, unknown> }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/agent-view',
      summary:
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
      const services = c.get('services');
      const { taskId } = c.req.valid('query');
      if (!taskId) throw new ApiError(400, 'task-id-required', 'Name the agent task: ?taskId=<step>/<node>.');
      const agentRunId = await agentRunOfTask(services.runClient, run.id, taskId).catch(sdkError);
      if (!agentRunId) throw new ApiError(404, 'task-not-found', 'The run has no agent task with this id.');
      return c.json({ view: (await describe(services, agentRunId)) as unknown as Record<string, unknown> }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/events',
      summary:
        'Server-Sent Events of the run: `id:` is the journal sequence; resume with `Last-Event-ID` or `?after=`; a ping every 15 s; closed after the terminal event.',
      request: {
        params: runParameters,
        query: z.object({ after: z.coerce.number().int().min(0).optional() }),
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
      await describe(c.get('services'), run.id);
      return sseOr400(c, run.id, c.req.valid('query').after) as never;
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/stop',
      summary:
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
      return c.json({ runId: run.id, status: apiStatusOf(await describe(services, run.id)) }, 202);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/supplements',
      summary:
        'Add a user message to an active run (S-1…S-4): 202 with its id; 409 `run-not-active` once the run ended, 409 `app-deleting` while its app is being deleted.',
      request: {
        params: runParameters,
        body: jsonBody(z.strictObject({ text: z.string().min(1).max(100_000) }).openapi('Supplement')),
      },
      responses: { 202: jsonResponse('Accepted.', z.object({ runId: z.string(), supplementId: z.string() })) },
    }),
    async (c) => {
      const { run, app: appRow } = await authorizeRun(c, c.req.valid('param').runId);
      if (appRow.state !== 'active') throw new ApiError(409, 'app-deleting', 'The app is being deleted.');
      const receipt = await c.get('services').runClient.supplement(run.id, c.req.valid('json').text).catch(sdkError);
      return c.json({ runId: receipt.runId, supplementId: receipt.supplementId }, 202);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/approvals/{approvalId}',
      summary: 'Decide a pending approval (K-5); the first decision wins.',
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
      const recorded = await c
        .get('services')
        .runClient.decideApproval(run.id, {
          approvalId,
          approved: body.approved,
          decidedBy: currentActor(c),
          ...(body.reason !== undefined ? { reason: body.reason } : {}),
        })
        .catch(sdkError);
      return c.json(recorded, 200);
    },
  );

  return app;
}
