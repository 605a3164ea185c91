/**
 * A local MCP server that requires MCP authorization, for the platform's MCP sign-in tests (a
 * platform test may not import the SDK's test files), built from the MCP SDK's own server parts: its authorization-server router (RFC 8414 metadata, RFC 9728
 * protected-resource metadata, dynamic registration, the authorization endpoint, and the token
 * endpoint, which checks PKCE and client authentication), its bearer-token middleware (401 with
 * the metadata URL), and a stateless streamable HTTP MCP server with one tool, `whoami`, that
 * reports the token's client and scopes. Only the authorization server's bookkeeping (codes,
 * tokens, consent) is written here, in memory, with counters the tests read.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** The running server and what its authorization server has seen. */
export interface ProtectedMcpServer {
  /** The MCP endpoint. */
  url: string;
  /** Authorization requests answered, codes exchanged, refreshes granted and refused, registrations. */
  readonly counts: {
    authorizations: number;
    codeExchanges: number;
    refreshes: number;
    refusedRefreshes: number;
    registrations: number;
  };
  /** What the person answers on the consent page. */
  consent: 'approve' | 'deny';
  /** Whether the MCP endpoint accepts the tokens it issued (false: it rejects them all, as after a revocation it ignores). */
  acceptTokens: boolean;
  /** Makes every access token issued so far expired (refresh tokens stay valid). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: URL;
}

/** Starts the server on a free loopback port. `scopes` are the ones the resource advertises and requires. */
export async function startProtectedMcpServer(options: { scopes?: string[] } = {}): Promise<ProtectedMcpServer> {
  const scopes = options.scopes ?? ['mcp:tools'];
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, Grant & { expiresAt: number }>();
  const refreshTokens = new Map<string, Grant>();
  const counts = { authorizations: 0, codeExchanges: 0, refreshes: 0, refusedRefreshes: 0, registrations: 0 };

  const issue = (grant: Grant): OAuthTokens => {
    const accessToken = randomUUID();
    const refreshToken = randomUUID();
    accessTokens.set(accessToken, { ...grant, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    refreshTokens.set(refreshToken, grant);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => clients.get(clientId),
    registerClient: (client) => {
      counts.registrations += 1;
      const full = {
        ...client,
        client_id: randomUUID(),
        client_id_issued_at: Math.floor(Date.now() / 1000),
      } as OAuthClientInformationFull;
      clients.set(full.client_id, full);
      return full;
    },
  };

  const provider: OAuthServerProvider = {
    clientsStore,
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, response: { redirect(url: string): void }) {
      counts.authorizations += 1;
      const target = new URL(params.redirectUri);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      if (server.consent === 'deny') {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_description', 'the person declined');
      } else {
        const code = randomUUID();
        codes.set(code, {
          clientId: client.client_id,
          scopes: params.scopes ?? [],
          challenge: params.codeChallenge,
          redirectUri: params.redirectUri,
          ...(params.resource ? { resource: params.resource } : {}),
        });
        target.searchParams.set('code', code);
      }
      response.redirect(target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const grant = codes.get(code);
      if (!grant) throw new InvalidGrantError('unknown authorization code');
      return grant.challenge;
    },
    async exchangeAuthorizationCode(client, code, _verifier, redirectUri) {
      const grant = codes.get(code);
      codes.delete(code);
      if (!grant || grant.clientId !== client.client_id || (redirectUri !== undefined && redirectUri !== grant.redirectUri)) {
        throw new InvalidGrantError('unknown authorization code');
      }
      counts.codeExchanges += 1;
      return issue({ clientId: grant.clientId, scopes: grant.scopes, ...(grant.resource ? { resource: grant.resource } : {}) });
    },
    async exchangeRefreshToken(client, refreshToken) {
      const grant = refreshTokens.get(refreshToken);
      // Refresh tokens rotate: each is good for one refresh.
      refreshTokens.delete(refreshToken);
      if (!grant || grant.clientId !== client.client_id) {
        counts.refusedRefreshes += 1;
        throw new InvalidGrantError('refresh token already used or unknown');
      }
      counts.refreshes += 1;
      return issue(grant);
    },
    async verifyAccessToken(token): Promise<AuthInfo> {
      const grant = accessTokens.get(token);
      if (!grant || !server.acceptTokens) throw new InvalidTokenError('unknown token');
      return {
        token,
        clientId: grant.clientId,
        scopes: grant.scopes,
        expiresAt: grant.expiresAt,
        ...(grant.resource ? { resource: grant.resource } : {}),
      };
    },
  };

  const app = createMcpExpressApp();
  const listener: Server = await new Promise((resolve) => {
    const started: Server = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', base);
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: scopes }));
  app.all(
    '/mcp',
    requireBearerAuth({
      verifier: provider,
      requiredScopes: scopes,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    }),
    async (request: IncomingMessage & { auth?: AuthInfo; body?: unknown }, response: ServerResponse) => {
      const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'Reports the caller’s client and scopes' }, async (extra) => ({
        content: [{ type: 'text', text: `client=${extra.authInfo?.clientId} scopes=${extra.authInfo?.scopes.join(' ')}` }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(request, response, request.body);
    },
  );

  const server: ProtectedMcpServer = {
    url: mcpUrl.href,
    counts,
    consent: 'approve',
    acceptTokens: true,
    expireAccessTokens: () => {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    close: () =>
      new Promise((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      }),
  };
  return server;
}
