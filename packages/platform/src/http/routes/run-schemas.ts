import { runEventSchema } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';
import { idParameter } from '../openapi.js';

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

export const runSchema = z
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
