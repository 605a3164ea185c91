import { McpAuthorizationRefusedError } from '@agentloom/sdk/capabilities/mcp';
import { z } from '@hono/zod-openapi';
import { findMcpSignInByState } from '../../adapters/database/repositories/mcp-sign-in-repository.js';
import {
  completeMcpSignIn,
  mcpSignInCallbackPath,
  mcpSignInStatus,
  signOutMcp,
  startMcpSignIn,
} from '../../application/mcp-sign-in/index.js';
import { DomainError } from '../../domain/errors.js';
import { ApiError } from '../api-error.js';
import { currentActor, requireUser } from '../authentication.js';
import { authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';
import { loadResource } from './resource-routes.js';
import { testFailure } from './resource-test-routes.js';

const resourceParameters = z.object({ spaceId: idParameter('spaceId'), resourceId: idParameter('resourceId') });
const statusResult = z
  .object({
    signIn: z.object({
      connected: z.boolean().openapi({ description: 'Tokens are held: runs can use the server.' }),
      pending: z.boolean().openapi({ description: 'A sign-in was started and has not come back yet.' }),
      expiresAt: z.string().nullable().openapi({ description: 'When the access token lapses (workers refresh it).' }),
      updatedAt: z.string().nullable(),
    }),
  })
  .openapi('McpSignInStatus');
const startResult = z
  .object({
    connected: z.boolean(),
    authorizationUrl: z
      .string()
      .optional()
      .openapi({ description: 'Where to send the person to sign in (absent when already connected).' }),
  })
  .openapi('McpSignInStart');
const callbackQuery = z.object({
  state: z.string().max(500).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});

/**
 * MCP sign-in from the console (issue 32): an MCP server resource whose version has `oauth` is
 * connected once per space. `POST …/sign-in` starts it (the SDK's discovery, registration and
 * PKCE through the egress policy) and answers where to send the person; the authorization server
 * sends them back to `GET /mcp-sign-in/callback`, which checks the session and the `state`,
 * exchanges the code and stores the tokens sealed, then sends them to the console page. Workers
 * use and refresh the tokens through the SDK's token store backed by the same row.
 */
export function mcpSignInRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/spaces/{spaceId}/resources/{resourceId}/sign-in',
      operationId: 'getMcpSignIn',
      tags: ['Resources'],
      summary: 'Read an MCP server’s sign-in',
      description: 'Whether the MCP server resource is connected (tokens held) in this space; never the tokens.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('The sign-in state.', statusResult) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.read');
      return c.json({ signIn: await mcpSignInStatus(c.get('services'), row.id) }, 200);
    },
  );
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources/{resourceId}/sign-in',
      operationId: 'startMcpSignIn',
      tags: ['Resources'],
      summary: 'Connect an MCP server (sign in)',
      errors: {
        409: ['no-sign-in'],
        422: ['secret-missing', 'egress-denied'],
        502: ['mcp-unreachable', 'mcp-refused', 'mcp-failed'],
        504: ['mcp-timeout'],
      },
      description:
        'Starts the OAuth sign-in of an MCP server resource whose newest version has `oauth`: answers the authorization server’s URL to send the person to, or `connected: true` when the tokens held already work.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('Where to sign in, or already connected.', startResult) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.manage');
      const redirectUrl = `${new URL(c.req.url).origin}${mcpSignInCallbackPath}`;
      try {
        return c.json(await startMcpSignIn(c.get('services'), row, currentActor(c), redirectUrl), 200);
      } catch (error) {
        if (error instanceof DomainError || error instanceof ApiError) throw error;
        throw testFailure(error);
      }
    },
  );
  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/spaces/{spaceId}/resources/{resourceId}/sign-in',
      operationId: 'signOutMcp',
      tags: ['Resources'],
      summary: 'Disconnect an MCP server',
      description: 'Forgets the tokens and registration of the MCP server resource in this space; runs need a new sign-in.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('Signed out.', z.object({ signedOut: z.boolean() }).openapi('McpSignOut')) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.manage');
      return c.json({ signedOut: await signOutMcp(c.get('services'), row.id) }, 200);
    },
  );
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/mcp-sign-in/callback',
      operationId: 'completeMcpSignIn',
      tags: ['Resources'],
      summary: 'MCP sign-in callback',
      errors: { 400: ['sign-in-not-found'], 403: ['user-required'] },
      description:
        'Where the authorization server sends the person back (the console session must be the one of an editor of the space). Exchanges the code and sends the browser back to the MCP servers page with `signIn=connected` or the refusal’s reason.',
      request: { query: callbackQuery },
      responses: {
        200: {
          description:
            'A page that takes the browser back to the console’s MCP servers page (`Refresh`, and a link for browsers that ignore it).',
          headers: { Refresh: { description: '`0;url=<the console page>`.', schema: { type: 'string' } } },
          content: { 'text/html': { schema: { type: 'string' } } },
        },
      },
    }),
    async (c) => {
      // A person's browser with its console session, never a key: the sign-in is theirs to complete.
      requireUser(c);
      const query = c.req.valid('query');
      const services = c.get('services');
      const row = query.state ? await findMcpSignInByState(services.database, query.state) : undefined;
      if (!row) throw new ApiError(400, 'sign-in-not-found', 'No sign-in under way matches this callback.');
      await authorizeSpace(c, row.space_id, 'resources.manage');
      const page = `/spaces/${row.space_id}/mcp-servers?resource=${encodeURIComponent(row.resource_id)}`;
      let outcome = 'connected';
      try {
        await completeMcpSignIn(services, query);
      } catch (error) {
        // The console says why; the authorization server's own words are not repeated (P-15.2).
        outcome = McpAuthorizationRefusedError.isInstance(error)
          ? String(error.reason)
              .replaceAll(/[^A-Za-z0-9_-]/g, '')
              .slice(0, 64) || 'failed'
          : 'failed';
      }
      // A page rather than a 3xx: the document declares what a client gets (the console page), the browser goes on at once.
      const target = `${page}&signIn=${outcome}`;
      c.header('Refresh', `0;url=${target}`);
      return c.html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AgentLoom</title></head><body><p><a href="${target}">Back to the console</a></p></body></html>`,
        200,
      );
    },
  );
  return app;
}
