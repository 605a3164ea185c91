import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { InvalidConfigurationError } from '../../core/errors/index.js';

/** Tokens as the authorization server issued them, stamped by the MCP SDK with the issuer (`issuer`). */
export type McpOAuthTokens = OAuthTokens;
/** A client registration (dynamic, RFC 7591, or a client ID metadata document URL), stamped with the issuer. */
export type McpOAuthClientInformation = OAuthClientInformationMixed;
/** What discovery found: the authorization server, its metadata and the protected-resource metadata. */
export type McpOAuthDiscovery = OAuthDiscoveryState;

/**
 * What the client keeps about its sign-in to one MCP server. Plain JSON holding secrets (tokens,
 * client secret, PKCE verifier): a host stores it encrypted at rest.
 */
export interface McpAuthorizationRecord {
  /** The current tokens. */
  tokens?: McpOAuthTokens;
  /** When `tokens` were obtained (ms since the epoch): with `expires_in`, when the access token lapses. */
  obtainedAt?: number;
  /** The client registration made with the authorization server (absent for configured clients). */
  client?: McpOAuthClientInformation;
  /**
   * An authorization-code flow under way: written when the person is sent to sign in, read when
   * the callback comes back (possibly in another process), removed once tokens are issued.
   */
  pending?: {
    /** The `state` sent with the request; the callback must echo it. */
    state: string;
    /** The PKCE code verifier (RFC 7636) of the request. */
    codeVerifier: string;
    authorizationUrl: string;
    /** Discovery as it was when the request was made, so the code goes to the same token endpoint. */
    discovery?: McpOAuthDiscovery;
    createdAt: number;
  };
}

/**
 * Where a client's sign-ins are kept, one record per MCP server (keyed by the connection's `name`).
 * The host persists them: the platform encrypts them per space, so that any worker can use and
 * refresh them. `update` must apply `change` atomically (read, change, write with no other
 * write between, e.g. in one transaction with the row locked): two workers refreshing the same
 * token must not lose each other's writes. `change` is synchronous and pure; returning
 * `undefined` deletes the record.
 */
export interface McpTokenStore {
  load(server: string): Promise<McpAuthorizationRecord | undefined>;
  update(
    server: string,
    change: (current: McpAuthorizationRecord | undefined) => McpAuthorizationRecord | undefined,
  ): Promise<void>;
}

/** A token store in memory: sign-ins last as long as the process (the default). */
export class MemoryMcpTokenStore implements McpTokenStore {
  private readonly records = new Map<string, McpAuthorizationRecord>();

  async load(server: string): Promise<McpAuthorizationRecord | undefined> {
    const record = this.records.get(server);
    return record ? structuredClone(record) : undefined;
  }

  async update(
    server: string,
    change: (current: McpAuthorizationRecord | undefined) => McpAuthorizationRecord | undefined,
  ): Promise<void> {
    const next = change(await this.load(server));
    if (next) this.records.set(server, structuredClone(next));
    else this.records.delete(server);
  }
}

/** The callback's query parameters (`code`, `state`, or `error` and `error_description`). */
export type McpAuthorizationCallback = URLSearchParams | Readonly<Record<string, string | undefined>>;

/** What a redirect handler is asked to do. */
export interface McpAuthorizationRedirectRequest {
  server: string;
  /** Where to send the person: the authorization server's sign-in page for this request. */
  authorizationUrl: URL;
  /** The `state` of the request (also in the URL). */
  state: string;
  /** Ends when the operation that needed the sign-in is abandoned (attempt timeout, stop). */
  signal?: AbortSignal;
}

/**
 * Sends a person to the authorization server. A handler that can wait for the redirect back (a
 * command-line tool with a local callback server) resolves with the callback's parameters, and
 * the connection continues at once. A handler that cannot (a web platform, where the callback
 * reaches another process later) resolves with `undefined`: the operation then fails with
 * `McpAuthorizationRequiredError`, and the host calls `completeMcpAuthorization` when the person
 * comes back.
 */
export type McpAuthorizationRedirect = (
  request: McpAuthorizationRedirectRequest,
) => Promise<McpAuthorizationCallback | undefined>;

/**
 * A person signs in (OAuth 2.1 authorization code with PKCE). The client discovers the
 * authorization server from the MCP server (RFC 9728, then RFC 8414 or OpenID discovery with the
 * specification's fallbacks), registers itself when no client is configured (a client ID metadata
 * document when `clientMetadataUrl` is given and supported, else dynamic registration, RFC 7591),
 * asks for the scopes the server's challenge names (and more on `403 insufficient_scope`), and
 * refreshes tokens when the server rejects an expired one.
 */
export interface McpAuthorizationCodeGrant {
  grant: 'authorization-code';
  /** Where the authorization server sends the person back (the host's callback). */
  redirectUrl: string | URL;
  /** Sends the person to sign in; default: none, so a sign-in fails with `McpAuthorizationRequiredError`. */
  redirect?: McpAuthorizationRedirect;
  /** Where tokens, the registration and the flow under way are kept. Default: in memory. */
  store?: McpTokenStore;
  /** A client registered beforehand with the authorization server (no dynamic registration then). */
  client?: { clientId: string; clientSecret?: string };
  /** The HTTPS URL of this client's metadata document, used as its client id where supported. */
  clientMetadataUrl?: string;
  /** The client's name shown on the consent page. Default `AgentLoom`. */
  clientName?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
}

/**
 * A machine client with its own credentials (OAuth client credentials grant): no person involved.
 * Authenticates with a secret (`client_secret_basic` or `_post`, as the server supports) or with
 * a signed JWT (`private_key_jwt`, RFC 7523).
 */
export interface McpClientCredentialsGrant {
  grant: 'client-credentials';
  clientId: string;
  clientSecret?: string;
  /** A private key (PKCS#8 PEM or JWK) and its JWS algorithm (`ES256`, `RS256` …), instead of a secret. */
  privateKey?: { key: string | Record<string, unknown>; algorithm: string };
  /** Scopes to ask for. */
  scope?: string;
  /** Where tokens are kept. Default: in memory. */
  store?: McpTokenStore;
}

/** How a client signs in to an MCP server (MCP authorization, streamable HTTP only). */
export type McpAuthorization = McpAuthorizationCodeGrant | McpClientCredentialsGrant;

const text = z.string().min(1);
const schema = z.discriminatedUnion('grant', [
  z.object({
    grant: z.literal('authorization-code'),
    redirectUrl: z.union([z.url(), z.instanceof(URL)]),
    client: z.object({ clientId: text, clientSecret: text.optional() }).optional(),
    clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
    clientName: text.optional(),
    scope: text.optional(),
  }),
  z
    .object({
      grant: z.literal('client-credentials'),
      clientId: text,
      clientSecret: text.optional(),
      privateKey: z.object({ key: z.union([text, z.record(z.string(), z.unknown())]), algorithm: text }).optional(),
      scope: text.optional(),
    })
    .refine((value) => (value.clientSecret === undefined) !== (value.privateKey === undefined), {
      message: 'give either clientSecret or privateKey',
    }),
]);

/** Checks an `authorization` option; throws `InvalidConfigurationError` listing every problem. */
export function checkAuthorization(server: string, authorization: McpAuthorization): void {
  const parsed = schema.safeParse(authorization);
  if (parsed.success) return;
  throw new InvalidConfigurationError(
    `MCP server "${server}" authorization`,
    parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}
