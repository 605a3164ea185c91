/**
 * The client program the official MCP conformance runner (`@modelcontextprotocol/conformance`)
 * starts once per client scenario: `node <this bundle> <server-url>`, with the scenario's name in
 * `MCP_CONFORMANCE_SCENARIO` and its data (pre-registered client credentials, a signing key) in
 * `MCP_CONFORMANCE_CONTEXT`. It does what a host application does with the SDK's public MCP API:
 * connects with `connectMcpServer`, calls every tool the server lists once, and closes. The host's
 * parts are played as a host would play them:
 *
 * - the redirect handler is the person's browser: it opens the authorization URL; the runner's
 *   authorization server approves at once and redirects to the callback, whose parameters are
 *   handed back (the SDK checks `state` and exchanges the code);
 * - the approval port accepts every elicitation without filling any field, so the answer carries
 *   exactly the defaults the SDK applies (SEP-1034).
 *
 * Exits with 1 (and the error on stderr) when connecting or a call fails.
 */

import {
  connectMcpServer,
  type McpAuthorization,
  type McpAuthorizationCallback,
  MemoryMcpTokenStore,
} from '../../src/capabilities/mcp/index.js';
import type { ToolExecutionContext } from '../../src/capabilities/tools/tool.js';

const serverUrl = process.argv.at(-1) as string;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
const callbackUrl = 'http://localhost:3000/callback';

/** The person's browser: follows the sign-in page to the redirect back and returns its parameters. */
async function browser({ authorizationUrl }: { authorizationUrl: URL }): Promise<McpAuthorizationCallback | undefined> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  return location ? new URL(location, authorizationUrl).searchParams : undefined;
}

function authorizationFor(name: string): McpAuthorization {
  const required = (key: string): string => {
    const value = context[key];
    if (value === undefined) throw new Error(`MCP_CONFORMANCE_CONTEXT lacks ${key} for ${name}`);
    return value;
  };
  if (name === 'auth/client-credentials-basic') {
    return { grant: 'client-credentials', clientId: required('client_id'), clientSecret: required('client_secret') };
  }
  if (name === 'auth/client-credentials-jwt') {
    return {
      grant: 'client-credentials',
      clientId: required('client_id'),
      privateKey: { key: required('private_key_pem'), algorithm: context.signing_algorithm ?? 'ES256' },
    };
  }
  return {
    grant: 'authorization-code',
    redirectUrl: callbackUrl,
    redirect: browser,
    store: new MemoryMcpTokenStore(),
    // A client ID metadata document (SEP-991), used where the authorization server supports it.
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    clientName: 'agentloom-conformance',
    ...(name === 'auth/pre-registration'
      ? { client: { clientId: required('client_id'), clientSecret: required('client_secret') } }
      : {}),
  };
}

const connection = await connectMcpServer({
  name: 'conformance',
  transport: 'streamable-http',
  url: serverUrl,
  authorization: authorizationFor(scenario),
  approvals: { request: async () => ({ decision: 'approve' }) },
});
try {
  const toolContext: ToolExecutionContext = {
    runId: 'conformance-run',
    sessionId: 'conformance-session',
    taskId: 'conformance-task',
    operationId: `conformance-${scenario}`,
    attempt: 1,
    signal: new AbortController().signal,
  };
  for (const tool of connection.tools) {
    const args = tool.name.endsWith('add_numbers') ? { a: 2, b: 3 } : {};
    console.log(`${tool.name}: ${String(await tool.execute(tool.parameters.parse(args), toolContext))}`);
  }
} finally {
  await connection.close();
}
