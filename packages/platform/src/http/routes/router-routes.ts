import { z } from '@hono/zod-openapi';
import { postRouterMessage, readRouterSession } from '../../application/routers/router-messages.js';
import { tryRouterDraft } from '../../application/routers/router-understanding.js';
import { routerDraftSchema } from '../../domain/router-draft.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeAppUse } from '../authorization.js';
import { apiRoute, createSubApp, errorResponse, idParameter, jsonBody, jsonResponse } from '../openapi.js';

const appParameters = z.object({ appId: idParameter('appId') });
const actionRef = z
  .object({ kind: z.enum(['agent', 'workflow', 'command', 'team']), id: z.string() })
  .openapi('ActionRef', { description: 'What an action starts; in a router, `id` is an app of the space.' });
const slotValue = z.union([z.string(), z.number(), z.boolean()]);
const command = z
  .object({
    type: z.enum(['start', 'setSlot', 'correctSlot', 'cancel', 'clarify', 'chitChat', 'handOff', 'cannotHandle']),
    action: actionRef.optional(),
    name: z.string().optional(),
    value: slotValue.optional(),
    options: z.array(actionRef).optional(),
    reason: z.string().optional(),
  })
  .openapi('IntentCommand', { description: 'A command of `@agentloom/intent` (`schemas/intent-commands.schema.json`).' });
const dialogueState = z
  .object({
    activeAction: actionRef.optional(),
    slots: z.record(z.string(), slotValue).optional(),
    askedSlot: z.string().optional(),
  })
  .openapi('DialogueState', {
    description: 'The dialogue state `understand` reads: the active action, its slots, the slot asked last.',
  });
const reply = z
  .object({
    kind: z.enum(['ask-slot', 'started', 'supplemented', 'cancelled', 'clarify', 'chit-chat', 'hand-off', 'cannot-handle']),
    text: z.string().openapi({ description: 'A default sentence; for `ask-slot`, the slot’s first prompt from the catalog.' }),
    action: actionRef.optional(),
    slot: z.string().optional(),
    options: z.array(z.object({ ref: actionRef, description: z.string() })).optional(),
  })
  .openapi('RouterReply');
const understanding = {
  commands: z.array(command),
  decidedBy: z
    .enum(['rules', 'similarity', 'model', 'fallback'])
    .openapi({ description: 'The layer whose verdict the commands are.' }),
  trace: z
    .array(
      z.looseObject({
        layer: z.enum(['rules', 'slots', 'similarity', 'model', 'fallback']),
        outcome: z.string().optional(),
        reason: z.string().optional(),
      }),
    )
    .openapi({ description: 'Every layer that ran, in order, with what it decided and why (`layer`, `outcome`, `reason`, …).' }),
  rejected: z.array(z.object({ command: z.unknown(), reason: z.string() })),
  reply,
};
const routerState = z
  .object({
    dialogue: dialogueState,
    run: z.object({ appId: z.string(), runId: z.string(), action: actionRef }).optional(),
  })
  .openapi('RouterSessionState');
const routerTurn = z
  .object({
    sessionId: z.string(),
    turn: z.number().int(),
    ...understanding,
    effects: z.array(
      z.object({
        type: z.enum(['started', 'supplemented', 'stopped']),
        runId: z.string(),
        appId: z.string().optional(),
        sessionId: z.string().optional().openapi({ description: 'For `started`: the session of the target app the run is in.' }),
      }),
    ),
    state: routerState,
  })
  .openapi('RouterTurn');
const routerSession = z
  .object({
    sessionId: z.string(),
    state: routerState,
    turns: z.array(z.object({ text: z.string(), result: routerTurn, createdAt: z.string() })),
  })
  .openapi('RouterSession');
const routerTrial = z
  .object({ ...understanding, state: dialogueState.openapi({ description: 'The dialogue state after the turn.' }) })
  .openapi('RouterTrial');

/**
 * Router apps (issue 33): `POST /routers/{appId}/messages` is one turn of a conversation with a
 * published router — the platform holds the dialogue state per session and starts, supplements
 * or stops the target apps' runs; `POST /routers/{appId}/draft/try` understands an utterance with
 * the saved draft and runs nothing.
 */
export function routerRoutes() {
  const app = createSubApp();
  // The draft of a router app (`PUT /apps/{appId}/draft`): an IntentCatalog over the space's apps.
  app.openAPIRegistry.register('RouterDraft', routerDraftSchema);

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/routers/{appId}/messages',
      operationId: 'postRouterMessage',
      tags: ['Routers'],
      summary: 'Send a router one user message; it understands it and routes by action.',
      description:
        'Runs `understand` (rules, then similarity with the offline embedder) on the router’s newest release with the session’s dialogue state, held by the platform. A missing required slot is asked for (`reply.kind: ask-slot`, its prompt); a complete action starts its agent or workflow app (a new run in a new session of that app, the slots as input: a workflow’s state fields, an agent’s text as a JSON object); a later message while that run is active is its supplement; `cancel` stops it (durable); chit-chat and anything else start nothing. Without `sessionId` a new router session starts; only its starter may continue it. `trace` shows which layer decided what.',
      request: {
        params: appParameters,
        body: jsonBody(
          z
            .strictObject({
              text: z.string().trim().min(1).max(4000),
              sessionId: z.string().min(1).max(100).optional().openapi({ description: 'The router session to continue.' }),
            })
            .openapi('RouterMessage'),
        ),
      },
      responses: {
        200: jsonResponse(
          'The turn: the commands, the trace, the reply and what was started, supplemented or stopped.',
          routerTurn,
        ),
        404: errorResponse('No such router, or no such router session of the caller (`not-found`).'),
        409: errorResponse(
          '`not-a-router`, `app-deleting`, `app-not-published` (the router or its target), `router-target-unavailable`, `turn-conflict` (two messages of one session at once).',
        ),
        422: errorResponse('The target app refused the input (`invalid-input`, `invalid-run-request`).'),
      },
    }),
    async (c) => {
      const { app: row, seesAllSessions } = await authorizeAppUse(c, c.req.valid('param').appId);
      const body = c.req.valid('json');
      const turn = await postRouterMessage(c.get('services'), row, currentActor(c), body, { seesAllSessions });
      return c.json(turn as unknown as z.infer<typeof routerTurn>, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/routers/{appId}/draft/try',
      operationId: 'tryRouterDraft',
      tags: ['Routers'],
      summary: 'Try an utterance on the saved router draft without running anything.',
      description:
        'The console’s “try it” panel: understands the utterance with the saved draft’s catalog and the given dialogue state, and answers the commands, the trace and the reply the router would give. Starts, stops and keeps nothing.',
      request: {
        params: appParameters,
        body: jsonBody(
          z.strictObject({ text: z.string().trim().min(1).max(4000), state: dialogueState.default({}) }).openapi('RouterTry'),
        ),
      },
      responses: {
        200: jsonResponse('What the router would do.', routerTrial),
        409: errorResponse('`not-a-router`.'),
        422: errorResponse('`draft-invalid` (the catalog’s issues in `details.issues`), `invalid-state`.'),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      const body = c.req.valid('json');
      const trial = await tryRouterDraft(c.get('services'), row, body.text, body.state);
      return c.json(
        { ...trial.result, reply: trial.plan.reply, state: trial.plan.state.dialogue } as unknown as z.infer<typeof routerTrial>,
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/routers/{appId}/sessions/{sessionId}',
      operationId: 'getRouterSession',
      tags: ['Routers'],
      summary: 'Read a router session: the dialogue state kept and every turn.',
      description:
        'The conversation as its starter had it: each message with the turn the router answered (commands, trace, reply, effects), oldest first, and the state the next message starts from. Only the session’s starter may read it.',
      request: { params: appParameters.extend({ sessionId: idParameter('sessionId') }) },
      responses: {
        200: jsonResponse('The session.', routerSession),
        404: errorResponse('No such router, or no such session of the caller (`not-found`).'),
        409: errorResponse('`not-a-router`.'),
      },
    }),
    async (c) => {
      const { appId, sessionId } = c.req.valid('param');
      const { app: row } = await authorizeAppUse(c, appId);
      const session = await readRouterSession(c.get('services'), row, currentActor(c), sessionId);
      return c.json(session as unknown as z.infer<typeof routerSession>, 200);
    },
  );

  return app;
}
