import { AgentLoomError, hasErrorCode } from '../../core/errors/agentloom-error.js';

/**
 * The MCP server needs a person to sign in, and no redirect handler could complete it in this
 * process. Everything needed to resume is kept: `authorizationUrl` is where to send the person
 * (it carries the PKCE challenge, `state` and the resource), and the token store holds the code
 * verifier and the client registration under the server's name. Once the authorization server
 * has sent the person back, pass the callback's parameters to `completeMcpAuthorization` (any
 * process using the same token store) and connect again. Not retryable: retrying asks again.
 */
export class McpAuthorizationRequiredError extends AgentLoomError {
  readonly server: string;
  /** The URL of the authorization server's sign-in page for this request. */
  readonly authorizationUrl: string;
  /** The `state` the callback must echo; `completeMcpAuthorization` checks it. */
  readonly state: string;
  readonly retryable = false;

  constructor(server: string, authorizationUrl: string, state: string) {
    super('mcp-authorization-required', `MCP server "${server}" needs a sign-in: visit ${authorizationUrl}`);
    this.server = server;
    this.authorizationUrl = authorizationUrl;
    this.state = state;
  }

  static override isInstance(error: unknown): error is McpAuthorizationRequiredError {
    return hasErrorCode(error, 'mcp-authorization-required');
  }
}

/**
 * Why an authorization was refused: the authorization server's OAuth error code when it gave one
 * (`access_denied`, `invalid_grant`, `invalid_client`, `invalid_scope`, `unauthorized_client` …),
 * otherwise one of these.
 */
export type McpAuthorizationRefusal =
  /** The callback's `state` is not the one of the authorization under way (a forged or stale callback). */
  | 'state-mismatch'
  /** A callback arrived, but no authorization is under way for this server in the token store. */
  | 'no-authorization-under-way'
  /** The MCP server refused the token the authorization server had just issued. */
  | 'token-rejected'
  /** The MCP server answered 403: the token still lacks a scope after asking for it, or may not be used there. */
  | 'forbidden'
  /** The flow failed for another reason (see the message and `cause`). */
  | 'failed'
  /** An OAuth error code of the authorization server. */
  | (string & Record<never, never>);

/** OAuth error codes that describe a passing condition of the authorization server. */
const transientRefusals = new Set(['server_error', 'temporarily_unavailable']);

/**
 * The authorization server or the MCP server refused the sign-in or the token. `reason` says
 * why (see `McpAuthorizationRefusal`). Retryable only when the authorization server reported a
 * passing condition (`server_error`, `temporarily_unavailable`); otherwise someone must act (sign
 * in again, fix the client registration or the requested scopes).
 */
export class McpAuthorizationRefusedError extends AgentLoomError {
  readonly server: string;
  readonly reason: McpAuthorizationRefusal;
  readonly retryable: boolean;

  constructor(server: string, reason: McpAuthorizationRefusal, detail: string, options?: { cause?: unknown }) {
    super(
      'mcp-authorization-refused',
      `MCP server "${server}": authorization refused (${reason})${detail ? `: ${detail}` : ''}`,
      options,
    );
    this.server = server;
    this.reason = reason;
    this.retryable = transientRefusals.has(reason);
  }

  static override isInstance(error: unknown): error is McpAuthorizationRefusedError {
    return hasErrorCode(error, 'mcp-authorization-refused');
  }
}

/**
 * The client could not find out how to sign in to the MCP server: no usable protected-resource
 * metadata (RFC 9728) or authorization-server metadata (RFC 8414, OpenID discovery) after every
 * fallback the MCP specification names, metadata that does not parse, or metadata naming another
 * resource than this server. Not retryable: the server's configuration must change.
 */
export class McpAuthorizationDiscoveryError extends AgentLoomError {
  readonly server: string;
  readonly retryable = false;

  constructor(server: string, detail: string, options?: { cause?: unknown }) {
    super('mcp-authorization-discovery-failed', `MCP server "${server}": authorization discovery failed: ${detail}`, options);
    this.server = server;
  }

  static override isInstance(error: unknown): error is McpAuthorizationDiscoveryError {
    return hasErrorCode(error, 'mcp-authorization-discovery-failed');
  }
}
