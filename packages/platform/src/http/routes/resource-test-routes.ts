import {
  McpAuthorizationRequiredError,
  McpConnectionError,
  McpRequestError,
  modelToolName,
} from '@agentloom/sdk/capabilities/mcp';
import { z } from '@hono/zod-openapi';
import { findEgressDenial, findOutboundError } from '../../adapters/outbound/index.js';
import { databaseAssemblyPorts } from '../../application/releases/database-assembly-ports.js';
import {
  connectWithin,
  McpConnectTimeoutError,
  McpSecretMissingError,
  type McpServerContent,
  McpSignInRequiredError,
  mcpConnectTimeoutMs,
  mcpServerNameOf,
  mcpServerOptions,
} from '../../assembly/mcp-servers.js';
import { ApiError } from '../api-error.js';
import { egressDeniedError } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';
import { loadResource } from './resource-routes.js';

const resourceParameters = z.object({ spaceId: idParameter('spaceId'), resourceId: idParameter('resourceId') });
const testBody = z
  .strictObject({
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(60_000)
      .optional()
      .openapi({ description: `How long connecting and listing tools may take; default ${mcpConnectTimeoutMs} ms.` }),
  })
  .openapi('TestResource');
const testResult = z
  .object({
    tools: z.array(
      z.object({
        name: z.string().openapi({ description: 'The tool as a workflow MCP node names it (`tool`).' }),
        modelName: z.string().openapi({ description: 'The tool as an agent’s model sees it: `<server>__<name>`.' }),
        description: z.string(),
      }),
    ),
    server: z.string().openapi({ description: 'The server name agents prefix its tools with.' }),
    instructions: z.string().nullable(),
  })
  .openapi('ResourceTestResult');

/**
 * Turns what connecting threw into the route's typed error: never a 500 for a server's fault, and
 * never the server's own words (P-15.2): the MCP client's errors carry the response body, so the
 * answer is a fixed sentence with the HTTP status or JSON-RPC code as details. A destination the
 * egress policy refuses is a 422 `egress-denied` with its rule (P-15.1).
 */
export function testFailure(error: unknown): ApiError {
  if (error instanceof McpSecretMissingError) return new ApiError(422, error.code, error.message, { secret: error.secret });
  if (error instanceof McpConnectTimeoutError) return new ApiError(504, error.code, error.message);
  if (error instanceof McpSignInRequiredError || McpAuthorizationRequiredError.isInstance(error))
    return new ApiError(409, 'mcp-sign-in-required', new McpSignInRequiredError('the MCP server').message);
  const denial = findEgressDenial(error);
  if (denial) return egressDeniedError(denial, 'content.url');
  const limit = findOutboundError(error);
  if (limit)
    return new ApiError(502, 'mcp-unreachable', `The MCP server's answer went beyond a bound (${limit.code}).`, {
      reason: limit.code,
    });
  if (McpConnectionError.isInstance(error)) {
    // An HTTP answer (5xx, 404, an unfollowed redirect) carries its status on the SDK's HTTP error.
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    const status = typeof code === 'number' && code >= 100 && code < 600 ? code : undefined;
    return new ApiError(
      502,
      'mcp-unreachable',
      `The MCP server could not be reached${status !== undefined ? ` (HTTP ${status})` : ''}.`,
      status !== undefined ? { httpStatus: status } : {},
    );
  }
  if (McpRequestError.isInstance(error)) {
    // An HTTP 4xx arrives as a request error carrying the status; 401/403 is a refused credential.
    const status = error.mcpCode;
    if (status === 401 || status === 403)
      return new ApiError(502, 'mcp-refused', `The MCP server refused the credentials (HTTP ${status}): check the headers.`, {
        httpStatus: status,
      });
    const detail = status === undefined ? {} : status >= 400 && status < 500 ? { httpStatus: status } : { mcpCode: status };
    return new ApiError(502, 'mcp-refused', 'The MCP server refused the request.', detail);
  }
  return new ApiError(502, 'mcp-failed', 'Connecting to the MCP server failed.');
}

/**
 * `POST /spaces/:spaceId/resources/:resourceId/test`: checks a resource the way runs will use it
 * (PLATFORM.md §4.4). For an MCP server: connect to its newest version with the SDK's MCP client
 * (secrets resolved now) through the outbound module, list its tools, close. The outcome is the
 * tool list, or a typed error with a fixed message (the server's body is never echoed, P-15.2):
 * 502 `mcp-unreachable` / `mcp-refused` / `mcp-failed`, 504 `mcp-timeout`, 422 `secret-missing`,
 * 422 `egress-denied` (P-15.1).
 * Other resource types answer 422 `test-not-supported`.
 */
export function resourceTestRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources/{resourceId}/test',
      operationId: 'testResource',
      tags: ['Resources'],
      summary: 'Test a resource',
      errors: {
        409: ['no-version', 'mcp-sign-in-required'],
        422: ['test-not-supported', 'secret-missing', 'egress-denied'],
        502: ['mcp-unreachable', 'mcp-refused', 'mcp-failed'],
        504: ['mcp-timeout'],
      },
      description: 'Test a resource: for an MCP server, connect and list its tools (bounded by a timeout).',
      request: {
        params: resourceParameters,
        body: { required: false, content: { 'application/json': { schema: testBody } } },
      },
      responses: {
        200: jsonResponse('The MCP server answered; its tools.', testResult),
      },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.manage');
      if (row.type !== 'mcp-server')
        throw new ApiError(422, 'test-not-supported', 'Only MCP server resources have a test call (list tools).');
      if (row.latest_version < 1) throw new ApiError(409, 'no-version', 'The resource has no version yet.');
      const services = c.get('services');
      // No app here: the ports only read this space's resource versions and secrets.
      const ports = databaseAssemblyPorts(services, { space_id: row.space_id, file_root: '' });
      const { content } = await ports.readResourceVersion(row.id, row.latest_version);
      const server = mcpServerNameOf(row.name, new Set());
      const timeoutMs = (c.req.valid('json') as z.infer<typeof testBody> | undefined)?.timeoutMs ?? mcpConnectTimeoutMs;
      let connection: Awaited<ReturnType<typeof connectWithin>>;
      try {
        const options = await mcpServerOptions(server, content as McpServerContent, ports, {
          toolNamePrefix: '',
          resourceId: row.id,
        });
        connection = await connectWithin(options, timeoutMs);
      } catch (error) {
        throw testFailure(error);
      }
      try {
        return c.json(
          {
            server,
            instructions: connection.instructions ?? null,
            tools: connection.tools.map((tool) => ({
              name: tool.name,
              modelName: modelToolName(`${server}__`, tool.name),
              description: tool.description,
            })),
          },
          200,
        );
      } finally {
        await connection.close();
      }
    },
  );
  return app;
}
