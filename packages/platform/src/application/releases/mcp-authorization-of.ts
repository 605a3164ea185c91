import type { McpAuthorization } from '@agentloom/sdk/capabilities/mcp';
import type { Queryable } from '../../adapters/database/queryable.js';
import { DatabaseMcpTokenStore, findMcpSignIn } from '../../adapters/database/repositories/mcp-sign-in-repository.js';
import { type McpOAuthSettings, McpSignInRequiredError } from '../../assembly/mcp-servers.js';
import { ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** What the MCP sign-in use cases work with. */
export type McpSignInContext = Pick<PlatformContext, 'database' | 'dialect' | 'secretBox' | 'config' | 'outbound' | 'now'>;

/**
 * The SDK authorization-code grant of an MCP server resource (issue 32): its space's sign-in row
 * as the token store (sealed, refreshed in place by whichever process finds the token expired),
 * the callback URL the sign-in was started with, and a pre-registered client when the resource
 * names one (its secret a space secret). `McpSignInRequiredError` when nobody connected it. The row
 * is looked up with `lookup` (the open transaction, if any); the store writes on its own.
 */
export async function mcpAuthorizationOf(
  context: McpSignInContext,
  resource: { id: string; name: string },
  oauth: McpOAuthSettings,
  readSecret: (name: string) => Promise<string | undefined>,
  lookup: Queryable = context.database,
): Promise<McpAuthorization> {
  const row = await findMcpSignIn(lookup, resource.id);
  if (!row) throw new McpSignInRequiredError(resource.name);
  let clientSecret: string | undefined;
  if (oauth.clientSecret) {
    clientSecret = await readSecret(oauth.clientSecret.secret);
    if (clientSecret === undefined)
      throw new ValidationError('secret-missing', `The secret "${oauth.clientSecret.secret}" does not exist in this space.`);
  }
  return {
    grant: 'authorization-code',
    redirectUrl: row.redirect_url,
    store: new DatabaseMcpTokenStore(context.database, context.dialect, context.secretBox, resource.id, context.now),
    clientName: 'AgentLoom',
    ...(oauth.clientId ? { client: { clientId: oauth.clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
    ...(oauth.scope ? { scope: oauth.scope } : {}),
  };
}
