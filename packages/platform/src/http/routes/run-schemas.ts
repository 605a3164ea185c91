import { runEventSchema } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';
import { apiRunStatuses } from '../../application/runs/run-status.js';
import { apiRoute, idParameter, jsonBody, jsonResponse } from '../openapi.js';

/* The schemas of the run routes, and the links every started run answers with. */

export const runParameters = z.object({ runId: idParameter('runId') });
export const appParameters = z.object({ appId: idParameter('appId') });
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

/** `Last-Event-ID`: the `id:` of the last event received; the stream resumes after it (400 `invalid-last-event-id`). */
export const lastEventIdHeader = z.object({
  'last-event-id': z.string().optional().openapi({
    description:
      'The `id:` (journal sequence) of the last event received, as browsers send it on reconnecting: the stream resumes after it; it wins over `?after=`.',
    example: '42',
  }),
});

/** An input a workflow run waits for (issue 36): what its input node asks. */
export const pendingInputSchema = z
  .object({
    interruptId: z.string().openapi({ description: 'What an answer names (`<taskId>#input`).' }),
    taskId: z.string(),
    node: z.string(),
    question: z.string(),
    schema: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'The JSON Schema an answer must match.' }),
    choices: z.array(z.unknown()).nullable().openapi({ description: 'The answers offered; an answer must be one of them.' }),
    deadlineAt: z
      .string()
      .nullable()
      .openapi({ description: 'When the timeout outcome is recorded, if the input has a timeout.' }),
    askedAt: z.string(),
  })
  .openapi('PendingInput');

export const runSchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    sessionId: z.string(),
    releaseId: z.string().nullable(),
    status: z.enum(apiRunStatuses),
    reason: z.string().nullable(),
    stopCause: z.string().nullable(),
    pendingInputs: z.array(pendingInputSchema).openapi({
      description:
        'The inputs the run waits for (status `waiting-input`): answer one with `POST /runs/{runId}/input`. Empty otherwise.',
    }),
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
export const acceptedSchema = z
  .object({
    runId: z.string(),
    sessionId: z.string(),
    status: z.string(),
    links: z.object({ self: z.string(), events: z.string(), stop: z.string() }),
  })
  .openapi('RunAccepted');
export const startBody = z
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

export function accepted(runId: string, sessionId: string, status: string) {
  return { runId, sessionId, status, links: runLinks(runId) };
}

/**
 * The `data:` of each message of a run's event stream: one `RunEvent` of the SDK's `runEventSchema`
 * (the run contract's single source, ADR 0020), an agent run's or a workflow run's event, each of
 * the two a union discriminated by `type`. Its JSON Schema (the same as `run-event.schema.json`)
 * becomes the document's components as it is: the OpenAPI generator would flatten the union of
 * unions, losing which engine an event type belongs to (three types exist in both).
 */
export function runEventComponents(): Record<string, Record<string, unknown>> {
  const { $defs } = z.toJSONSchema(runEventSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' });
  return JSON.parse(JSON.stringify($defs).replaceAll('"#/$defs/', '"#/components/schemas/'));
}
export const runEventStream = { 'text/event-stream': { schema: { $ref: '#/components/schemas/RunEvent' } } };

/**
 * The two answers of `POST /apps/{appId}/runs` with 200, told apart by media type because `mode`
 * decides: `blocking` answers the ended run as JSON, `stream` the run's event stream (one operation
 * keeps the existing clients working; see docs/http-api.md).
 */
export const startRunAnswers = {
  'application/json': {
    schema: z
      .object({ run: runSchema })
      .openapi('RunEnded', { description: '`mode: "blocking"` and the run ended within `?wait=`: the run as it ended.' }),
  },
  // `mode: "stream"`: Server-Sent Events from the first event, as `GET /runs/{runId}/events` sends them.
  ...runEventStream,
};

/** `POST /apps/{appId}/runs`: start a run, answered by `mode` (202, JSON or an event stream). */
export const startRunRoute = apiRoute({
  method: 'post',
  path: '/apps/{appId}/runs',
  operationId: 'startRun',
  tags: ['Runs'],
  summary: 'Start a run',
  errors: {
    400: ['invalid-last-event-id'],
    409: ['run-active', 'app-deleting', 'app-not-published', 'session-kind-mismatch'],
    422: [
      'egress-denied',
      'invalid-input',
      'invalid-run-request',
      'idempotency-key-reused',
      'release-not-found',
      'release-pin-not-allowed',
      'webhook-secret-missing',
      'not-yet-supported',
    ],
  },
  description:
    'Start a run: `async` → 202 with the run id; `stream` → SSE; `blocking` → waits up to `?wait=` seconds (≤ 60), 200 when it ended, else 202. 409 `run-active` when the session has an active run.',
  request: {
    params: appParameters,
    query: z.object({ wait: z.coerce.number().int().min(1).max(60).optional() }),
    headers: idempotencyHeader.extend(lastEventIdHeader.shape),
    body: jsonBody(startBody),
  },
  responses: {
    200: {
      description:
        'By `mode`: `blocking` → `application/json`, the ended run (`RunEnded`); `stream` → `text/event-stream`, the run’s `RunEvent`s until its terminal event. `async`, and `blocking` past `?wait=`, answer 202.',
      content: startRunAnswers,
    },
    202: jsonResponse('Accepted: the run is queued or running.', acceptedSchema),
  },
});

/** `GET /apps/{appId}/runs`: the app's run log. */
export const listRunsRoute = apiRoute({
  method: 'get',
  path: '/apps/{appId}/runs',
  operationId: 'listRuns',
  tags: ['Runs'],
  summary: 'List runs',
  errors: { 400: ['invalid-cursor'] },
  description: 'The app’s run log, newest first, from the SDK store (editors and above).',
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
});
