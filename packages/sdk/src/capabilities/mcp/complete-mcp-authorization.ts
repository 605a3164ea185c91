import { InvalidConfigurationError } from '../../core/errors/index.js';
import type { McpServerOptions } from './connect-mcp-server.js';
import { checkAuthorization, type McpAuthorizationCallback } from './mcp-authorization.js';
import { McpOAuthProvider } from './mcp-oauth-provider.js';

/**
 * Completes a person's sign-in to an MCP server after the authorization server sent them back:
 * checks the callback's `state` against the sign-in under way in the token store, exchanges the
 * code (with the stored PKCE verifier) and stores the tokens. Pass the same options as to
 * `connectMcpServer` (any process whose token store holds the sign-in under way), then connect.
 * Throws `McpAuthorizationRefusedError` when the person refused (`access_denied` …), the state does
 * not match, or the authorization server rejects the code; `McpAuthorizationDiscoveryError` when
 * the authorization server can no longer be found.
 *
 * @example
 * // In the host's callback route, e.g. GET /oauth/callback?code=…&state=…
 * await completeMcpAuthorization(serverOptions, new URL(request.url).searchParams);
 * const server = await connectMcpServer(serverOptions);
 */
export async function completeMcpAuthorization(server: McpServerOptions, callback: McpAuthorizationCallback): Promise<void> {
  const authorization = server.transport === 'streamable-http' ? server.authorization : undefined;
  if (server.transport !== 'streamable-http' || authorization?.grant !== 'authorization-code') {
    throw new InvalidConfigurationError(`MCP server "${server.name}"`, [
      { path: 'authorization.grant', message: 'only an authorization-code sign-in over streamable HTTP can be completed' },
    ]);
  }
  checkAuthorization(server.name, authorization);
  await new McpOAuthProvider(server.name, server.url, authorization).complete(callback);
}
