import { z } from '@hono/zod-openapi';
import { readWorkflowNodes } from '../../application/runs/workflow-nodes.js';
import { authorizeRun } from '../authorization.js';
import { apiRoute, createSubApp, jsonResponse } from '../openapi.js';
import { runParameters } from './run-schemas.js';

const nodeSchema = z
  .object({
    node: z.string(),
    status: z.enum(['running', 'waiting-input', 'succeeded', 'failed', 'interrupted']),
    step: z.number().int().openapi({ description: 'The superstep of the node’s latest task.' }),
    tasks: z.number().int().openapi({ description: 'How many tasks of the node ran (a node in a loop runs once per round).' }),
    failure: z.unknown().optional().openapi({ description: 'The typed failure of the latest task, when it failed.' }),
    agentRunId: z.string().optional().openapi({ description: 'An agent node’s inner run (see `/runs/{runId}/agent-view`).' }),
    output: z.unknown().optional().openapi({ description: 'An agent node’s answer, once it succeeded.' }),
  })
  .openapi('WorkflowNode');

/** `GET /runs/{runId}/nodes`: a workflow run's nodes with their statuses, results and errors (PLATFORM.md §4.4). */
export function runNodeRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/runs/{runId}/nodes',
      operationId: 'listRunNodes',
      tags: ['Runs'],
      summary: 'List a workflow run’s nodes',
      description:
        'Each node that has run: the status of its latest task, its superstep, how often it ran, its failure and, for an agent node, its inner run and answer. 422 `not-a-workflow-run` for an agent run.',
      errors: { 422: ['not-a-workflow-run'] },
      request: { params: runParameters },
      responses: { 200: jsonResponse('The nodes.', z.object({ nodes: z.array(nodeSchema) })) },
    }),
    async (c) => {
      const { run } = await authorizeRun(c, c.req.valid('param').runId);
      return c.json({ nodes: await readWorkflowNodes(c.get('services'), run.id) }, 200);
    },
  );
  return app;
}
