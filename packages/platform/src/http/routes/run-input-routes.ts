import { z } from '@hono/zod-openapi';
import { answerRunInput } from '../../application/runs/run-service.js';
import { currentActor } from '../authentication.js';
import { authorizeRun } from '../authorization.js';
import { apiRoute, createSubApp, errorResponse, jsonBody, jsonResponse } from '../openapi.js';
import { runParameters } from './run-schemas.js';

/** The body of `POST /runs/{runId}/input`. */
const inputAnswerBody = z
  .strictObject({
    interruptId: z.string().min(1).max(400).optional().openapi({
      description: 'The input answered (`pendingInputs[].interruptId` of the run); may be left out when the run waits for one.',
    }),
    answer: z
      .unknown()
      .refine((value) => value !== undefined, 'an answer is required')
      .openapi({ description: "The answer: any JSON value matching the input's schema (and one of its choices)." }),
  })
  .openapi('InputAnswer');

const inputAcceptedSchema = z
  .object({
    runId: z.string(),
    interruptId: z.string(),
    sequence: z.number().openapi({ description: "The answer's journal sequence." }),
  })
  .openapi('InputAccepted');

/**
 * Human input in workflows (P-14.1, issue 36): answer the input node a run waits for. The answer is
 * checked against the node's JSON Schema and choices, journaled once through the SDK (the external
 * append, like supplements and approval decisions), and the run goes on on whichever worker owns
 * it — or the next one, after a worker's death. Of two racing answers exactly one is taken.
 */
export function runInputRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/runs/{runId}/input',
      operationId: 'answerRunInput',
      tags: ['runs'],
      summary: 'Answer the input a workflow run waits for',
      description:
        "Answers an input node of a run in status `waiting-input` (its `pendingInputs`). Exactly one answer is taken: the first in the run's journal (a person's, or the input's recorded timeout outcome); any other is refused with 409 `input-already-answered`. The run continues on whichever worker owns it.",
      request: { params: runParameters, body: jsonBody(inputAnswerBody) },
      responses: {
        200: jsonResponse('The answer was taken; the run goes on with it.', inputAcceptedSchema),
        404: errorResponse(
          'No such run (`not-found`), or the run waits for no such input (`input-not-found`; also when it waits for several and none is named).',
        ),
        409: errorResponse(
          'The input already has its answer (`input-already-answered`, `details.timedOut` when it was the timeout outcome), the run has ended (`run-not-active`), or its app is being deleted (`app-deleting`).',
        ),
        422: errorResponse(
          "The answer does not match the input's schema or choices (`invalid-input-answer`, `details.problems`); nothing was written.",
        ),
      },
    }),
    async (c) => {
      const { run, app: appRow } = await authorizeRun(c, c.req.valid('param').runId);
      const body = c.req.valid('json');
      const answer = { interruptId: body.interruptId, value: body.answer, answeredBy: currentActor(c) };
      return c.json(await answerRunInput(c.get('services'), appRow, run.id, answer), 200);
    },
  );
  return app;
}
