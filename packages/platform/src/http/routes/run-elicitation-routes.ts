import { z } from '@hono/zod-openapi';
import { answerRunElicitation } from '../../application/runs/run-service.js';
import { currentActor } from '../authentication.js';
import { authorizeRun } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import { runParameters } from './run-schemas.js';

/** A value of an MCP elicitation form: a string, number, boolean, or a list of strings (multi-select). */
const fieldValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(1000)).max(100)]);

/** The body of `POST /runs/{runId}/elicitations/{elicitationId}`. */
const elicitationAnswerBody = z
  .strictObject({
    action: z.enum(['accept', 'decline', 'cancel']).openapi({
      description: '`accept` (with `content`), `decline` (the user said no) or `cancel` (dismissed without a choice).',
    }),
    content: z.record(z.string().max(200), fieldValue).optional().openapi({
      description:
        "The form's values (accept only): checked against the question's `requestedSchema` once its defaults are applied.",
    }),
  })
  .openapi('ElicitationAnswer');

const elicitationAcceptedSchema = z
  .object({
    runId: z.string(),
    elicitationId: z.string(),
    sequence: z.number().openapi({ description: "The answer's journal sequence." }),
  })
  .openapi('ElicitationAccepted');

/**
 * MCP elicitation in runs (ADR 0038): answer the question an MCP server asked the run's user during
 * a tool call (`agent.elicitations` of the run view, status `pending`; the run is `waiting-input`).
 * The answer is checked against the question's schema and journaled once through the SDK; the run
 * goes on on whichever worker owns it. Only a person holding access to the run answers here: an
 * A2A message or a team member's mail never answers an elicitation (issue 31).
 */
export function runElicitationRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/elicitations/{elicitationId}',
      operationId: 'answerRunElicitation',
      tags: ['Runs'],
      summary: "Answer an MCP server's question",
      errors: {
        404: ['elicitation-not-found'],
        409: ['elicitation-not-pending', 'run-not-active', 'app-deleting'],
        422: ['invalid-elicitation-answer'],
      },
      description:
        "Answers an MCP elicitation a run waits for: `accept` with `content` matching the question's `requestedSchema` (422 `invalid-elicitation-answer`, `details.problems`, nothing written), `decline` or `cancel`. Exactly one answer is taken: a second one, or one after the asking call ended (after a crash its outcome is `unknown`), is 409 `elicitation-not-pending`.",
      request: {
        params: runParameters.extend({ elicitationId: idParameter('elicitationId') }),
        body: jsonBody(elicitationAnswerBody),
      },
      responses: { 200: jsonResponse('The answer was taken; the run goes on with it.', elicitationAcceptedSchema) },
    }),
    async (c) => {
      const { runId, elicitationId } = c.req.valid('param');
      const { run, app: appRow } = await authorizeRun(c, runId);
      const body = c.req.valid('json');
      const answer = { elicitationId, action: body.action, content: body.content, answeredBy: currentActor(c) };
      return c.json(await answerRunElicitation(c.get('services'), appRow, run.id, answer), 200);
    },
  );
  return app;
}
