import { completeMcpAuthorization, McpAuthorizationRequiredError } from '@agentloom/sdk/capabilities/mcp';
import {
  deleteMcpSignIn,
  findMcpSignIn,
  findMcpSignInByState,
  openMcpRecord,
  prepareMcpSignIn,
} from '../../adapters/database/repositories/mcp-sign-in-repository.js';
import type { ResourceRow } from '../../adapters/database/schema.js';
import {
  connectWithin,
  type McpServerContent,
  mcpConnectTimeoutMs,
  mcpServerNameOf,
  mcpServerOptions,
} from '../../assembly/mcp-servers.js';
import { ConflictError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { databaseAssemblyPorts } from '../releases/database-assembly-ports.js';
import type { McpSignInContext } from '../releases/mcp-authorization-of.js';

export { type McpSignInContext, mcpAuthorizationOf } from '../releases/mcp-authorization-of.js';

/** The platform route the authorization server sends the person back to (under the API base). */
export const mcpSignInCallbackPath = '/api/v1/mcp-sign-in/callback';

/** The newest content of an MCP server resource that signs in over OAuth; a conflict otherwise. */
async function oauthServerOf(context: McpSignInContext, resource: ResourceRow) {
  const ports = databaseAssemblyPorts(context, { space_id: resource.space_id, file_root: '' });
  if (resource.type !== 'mcp-server' || resource.latest_version < 1)
    throw new ConflictError('no-sign-in', 'Only an MCP server resource with a version signs in.');
  const content = (await ports.readResourceVersion(resource.id, resource.latest_version)).content as McpServerContent;
  if (content.transport !== 'streamable-http' || !content.oauth)
    throw new ConflictError('no-sign-in', 'This MCP server does not sign in over OAuth (its newest version has no `oauth`).');
  return { content, ports };
}

/**
 * Starts connecting an MCP server resource (the console's "Connect"): creates its sign-in row
 * with `redirectUrl` as the callback, then connects with the SDK (discovery, dynamic
 * registration or the configured client, PKCE) through the outbound module. Already signed in
 * with tokens the server accepts: `{ connected: true }`. Otherwise the SDK stops at the redirect
 * and the answer is where to send the person; the sign-in under way is in the sealed record.
 */
export async function startMcpSignIn(
  context: McpSignInContext,
  resource: ResourceRow,
  actor: string,
  redirectUrl: string,
): Promise<{ connected: true } | { connected: false; authorizationUrl: string }> {
  const { content, ports } = await oauthServerOf(context, resource);
  await prepareMcpSignIn(context.database, {
    resourceId: resource.id,
    spaceId: resource.space_id,
    redirectUrl,
    actor,
    now: context.now().toISOString(),
  });
  const name = mcpServerNameOf(resource.name, new Set());
  const options = await mcpServerOptions(name, content, ports, { resourceId: resource.id, toolNamePrefix: '' });
  if (options.transport === 'streamable-http' && options.authorization?.grant === 'authorization-code')
    options.authorization.redirect = async () => undefined; // the person is sent there by the console
  try {
    const connection = await connectWithin(options, mcpConnectTimeoutMs);
    await connection.close();
    return { connected: true };
  } catch (error) {
    if (McpAuthorizationRequiredError.isInstance(error)) return { connected: false, authorizationUrl: error.authorizationUrl };
    throw error;
  }
}

/**
 * Completes a sign-in when the authorization server sends the person back: finds the sign-in
 * under way by its `state` (unknown: `no-authorization-under-way`), exchanges the code with the
 * stored PKCE verifier through the SDK and stores the tokens sealed. Answers the resource, so the
 * console page can say it is connected.
 */
export async function completeMcpSignIn(
  context: McpSignInContext,
  query: Record<string, string | undefined>,
): Promise<{ spaceId: string; resourceId: string } | undefined> {
  const row = query.state ? await findMcpSignInByState(context.database, query.state) : undefined;
  if (!row) return undefined;
  const resource = await context.database
    .selectFrom('resources')
    .selectAll()
    .where('id', '=', row.resource_id)
    .executeTakeFirstOrThrow();
  const { content, ports } = await oauthServerOf(context, resource);
  const name = mcpServerNameOf(resource.name, new Set());
  const options = await mcpServerOptions(name, content, ports, { resourceId: resource.id });
  await completeMcpAuthorization(options, query);
  return { spaceId: resource.space_id, resourceId: resource.id };
}

/** Whether an MCP server resource is connected: tokens held, a sign-in under way, when the access token lapses. */
export async function mcpSignInStatus(context: McpSignInContext, resourceId: string) {
  const row = await findMcpSignIn(context.database, resourceId);
  const record = row ? openMcpRecord(context.secretBox, row.record_sealed) : undefined;
  const expiresIn = record?.tokens?.expires_in;
  return {
    connected: record?.tokens !== undefined,
    pending: record?.pending !== undefined,
    expiresAt:
      record?.obtainedAt !== undefined && expiresIn !== undefined
        ? new Date(record.obtainedAt + expiresIn * 1000).toISOString()
        : null,
    updatedAt: row?.updated_at ?? null,
  };
}

/** Forgets a resource's sign-in: runs need a new one. Answers whether there was one. */
export function signOutMcp(context: Pick<PlatformContext, 'database'>, resourceId: string): Promise<boolean> {
  return deleteMcpSignIn(context.database, resourceId);
}
