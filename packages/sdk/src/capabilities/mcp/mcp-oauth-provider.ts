import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  type AddClientAuthentication,
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { AgentLoomError } from '../../core/errors/agentloom-error.js';
import {
  type McpAuthorization,
  type McpAuthorizationCallback,
  type McpAuthorizationRecord,
  type McpTokenStore,
  MemoryMcpTokenStore,
} from './mcp-authorization.js';
import {
  McpAuthorizationDiscoveryError,
  McpAuthorizationRefusedError,
  McpAuthorizationRequiredError,
} from './mcp-authorization-errors.js';
import { isNetworkFailure } from './mcp-errors.js';

/**
 * The MCP SDK's `OAuthClientProvider` over AgentLoom's ports (N-8): tokens, the client
 * registration and the flow under way live in the host's `McpTokenStore`, read afresh at every
 * use so that several processes share one sign-in; the person is sent to sign in by the host's
 * redirect handler. The OAuth itself (discovery with its fallbacks, registration, PKCE, token
 * requests, refresh, step-up) is the MCP SDK's `auth()`; this class adds what the SDK leaves to
 * the application: durable state, completing a sign-in in another process, `offline_access` when
 * the authorization server offers it (so that workers can refresh without the person), refresh
 * races between processes, and typed errors. The SDK calls the provider without saying for which
 * request; each operation runs with its own state (`run`, an async context), so that concurrent
 * requests of one connection never mix their flows.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly server: string;
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly serverUrl: URL;
  private readonly options: McpAuthorization;
  private readonly store: McpTokenStore;
  /** The state of the operation (a connect, a request, a completion) the SDK's `auth()` runs for. */
  private readonly operations = new AsyncLocalStorage<OperationState>();
  /** The operation state a failed operation ended with, by its error: what `classify` and `signIn` read. */
  private readonly failures = new WeakMap<object, OperationState>();

  constructor(server: string, serverUrl: string | URL, options: McpAuthorization) {
    this.server = server;
    this.serverUrl = new URL(serverUrl);
    this.options = options;
    this.store = options.store ?? new MemoryMcpTokenStore();
    if (options.grant === 'client-credentials' && options.privateKey) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: options.clientId,
        subject: options.clientId,
        privateKey: options.privateKey.key,
        alg: options.privateKey.algorithm,
      });
    }
  }

  get redirectUrl(): string | URL | undefined {
    return this.options.grant === 'authorization-code' ? this.options.redirectUrl : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.grant === 'authorization-code' ? this.options.clientMetadataUrl : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const options = this.options;
    if (options.grant === 'client-credentials') {
      return { client_name: 'AgentLoom', redirect_uris: [], grant_types: ['client_credentials'], ...scopeOf(options.scope) };
    }
    return {
      client_name: options.clientName ?? 'AgentLoom',
      redirect_uris: [String(options.redirectUrl)],
      // refresh_token: the client keeps working after the access token lapses (SEP-2207).
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...scopeOf(options.scope),
    };
  }

  state(): string {
    this.operation.requestState = randomBytes(24).toString('base64url');
    return this.operation.requestState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    this.operation.phase = 'authorization';
    const configured = this.configuredClient();
    if (configured) return configured;
    return (await this.store.load(this.server))?.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.configuredClient()) return;
    await this.store.update(this.server, (current) => ({ ...current, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = (await this.store.load(this.server))?.tokens;
    this.operation.tokensRead = tokens;
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.operation.phase = undefined;
    await this.store.update(this.server, ({ pending: _, ...current } = {}) => ({ ...current, tokens, obtainedAt: Date.now() }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const operation = this.operation;
    operation.phase = undefined;
    const { requestState: state, verifier: codeVerifier, discovered } = operation;
    if (state === undefined || codeVerifier === undefined)
      throw new Error('the MCP SDK asked for a redirect before state and verifier');
    withOfflineAccess(authorizationUrl, discovered);
    const pending: NonNullable<McpAuthorizationRecord['pending']> = {
      state,
      codeVerifier,
      authorizationUrl: authorizationUrl.href,
      ...(discovered ? { discovery: discovered } : {}),
      createdAt: Date.now(),
    };
    await this.store.update(this.server, (current) => ({ ...current, pending }));
    operation.redirected = { authorizationUrl, state };
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.operation.verifier = codeVerifier;
  }

  async codeVerifier(): Promise<string> {
    const pending = (await this.store.load(this.server))?.pending;
    if (!pending) throw new McpAuthorizationRefusedError(this.server, 'no-authorization-under-way', 'no code verifier is stored');
    return pending.codeVerifier;
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const operation = this.operation;
    operation.phase = 'discovery';
    operation.discovered = undefined;
    // Outside a code exchange, discovery runs afresh: a moved authorization server is noticed.
    return operation.exchanging ? (await this.store.load(this.server))?.pending?.discovery : undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.operation.discovered = state;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const read = this.operation.tokensRead;
    await this.store.update(this.server, (current) => {
      if (!current) return current;
      const next = { ...current };
      // Another process may have refreshed meanwhile (refresh tokens rotate): keep its tokens.
      if ((scope === 'all' || scope === 'tokens') && current.tokens?.access_token === read?.access_token) {
        delete next.tokens;
        delete next.obtainedAt;
      }
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'verifier') delete next.pending;
      if (scope === 'discovery' && next.pending) next.pending = { ...next.pending, discovery: undefined };
      return next;
    });
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.options.grant !== 'client-credentials') return undefined;
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  /** Runs one operation with its own authorization state; its failure keeps that state for `classify` and `signIn`. */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    const state: OperationState = {};
    try {
      return await this.operations.run(state, operation);
    } catch (error) {
      if (typeof error === 'object' && error !== null) this.failures.set(error, state);
      throw error;
    }
  }

  /**
   * After an operation failed because the MCP SDK started a sign-in (`UnauthorizedError`): asks
   * the host's redirect handler, and completes the sign-in when it returns the callback;
   * otherwise throws `McpAuthorizationRequiredError` with what the host needs to resume.
   */
  async signIn(failure: unknown, signal?: AbortSignal): Promise<void> {
    const redirected = this.failures.get(failure as object)?.redirected;
    if (!redirected) {
      throw new McpAuthorizationRefusedError(this.server, 'token-rejected', 'the server refused the token it was given');
    }
    const redirect = this.options.grant === 'authorization-code' ? this.options.redirect : undefined;
    const callback = redirect
      ? await redirect({
          server: this.server,
          authorizationUrl: redirected.authorizationUrl,
          state: redirected.state,
          ...(signal ? { signal } : {}),
        })
      : undefined;
    if (!callback) throw new McpAuthorizationRequiredError(this.server, redirected.authorizationUrl.href, redirected.state);
    await this.complete(callback);
  }

  /** Completes a sign-in from the callback's parameters: checks `state`, exchanges the code, stores the tokens. */
  async complete(callback: McpAuthorizationCallback): Promise<void> {
    const parameters = callback instanceof URLSearchParams ? callback : new URLSearchParams(definedOnly(callback));
    const pending = (await this.store.load(this.server))?.pending;
    if (!pending) throw new McpAuthorizationRefusedError(this.server, 'no-authorization-under-way', 'start a sign-in first');
    if (parameters.get('state') !== pending.state) {
      throw new McpAuthorizationRefusedError(
        this.server,
        'state-mismatch',
        'the callback does not belong to the sign-in under way',
      );
    }
    const refused = parameters.get('error');
    const code = parameters.get('code');
    if (refused || !code) {
      await this.store.update(this.server, ({ pending: _, ...current } = {}) => current);
      throw new McpAuthorizationRefusedError(
        this.server,
        refused ?? 'invalid_request',
        parameters.get('error_description') ?? (refused ? '' : 'the callback carries no code'),
      );
    }
    try {
      const result = await this.run(() => {
        this.operation.exchanging = true;
        return auth(this, { serverUrl: this.serverUrl, authorizationCode: code });
      });
      if (result !== 'AUTHORIZED')
        throw new McpAuthorizationRefusedError(this.server, 'failed', `the code exchange ended with ${result}`);
    } catch (error) {
      throw this.classify(error) ?? error;
    }
  }

  /**
   * The typed error for a failure of the authorization machinery, or `undefined` when `error` did
   * not come from it. By type and by where `auth()` was, never by message text: OAuth errors
   * of the authorization server are refusals; anything else thrown while discovery ran is a
   * discovery failure; the MCP server rejecting fresh tokens (401, or 403 also after a step-up)
   * is a refusal; an unreachable authorization server stays a connection failure (retryable).
   */
  classify(error: unknown): AgentLoomError | undefined {
    const operation = typeof error === 'object' && error !== null ? this.failures.get(error) : undefined;
    const phase = operation?.phase;
    if (AgentLoomError.isInstance(error)) return error;
    if (error instanceof UnauthorizedError) {
      const redirected = operation?.redirected;
      return redirected
        ? new McpAuthorizationRequiredError(this.server, redirected.authorizationUrl.href, redirected.state)
        : new McpAuthorizationRefusedError(this.server, 'token-rejected', 'the server refused the token it was given', {
            cause: error,
          });
    }
    if (error instanceof OAuthError)
      return new McpAuthorizationRefusedError(this.server, error.errorCode, error.message, { cause: error });
    if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) {
      const reason = error.code === 401 ? 'token-rejected' : 'forbidden';
      return new McpAuthorizationRefusedError(this.server, reason, error.message, { cause: error });
    }
    if (phase === undefined || isNetworkFailure(error)) return undefined;
    const detail = error instanceof Error ? error.message : String(error);
    if (phase === 'discovery') return new McpAuthorizationDiscoveryError(this.server, detail, { cause: error });
    return new McpAuthorizationRefusedError(this.server, 'failed', detail, { cause: error });
  }

  /** The current operation's state (a throwaway one outside `run`). */
  private get operation(): OperationState {
    return this.operations.getStore() ?? {};
  }

  private configuredClient(): OAuthClientInformationMixed | undefined {
    const options = this.options;
    if (options.grant === 'client-credentials') {
      return { client_id: options.clientId, ...(options.clientSecret ? { client_secret: options.clientSecret } : {}) };
    }
    if (!options.client) return undefined;
    return {
      client_id: options.client.clientId,
      ...(options.client.clientSecret ? { client_secret: options.client.clientSecret } : {}),
    };
  }
}

/** What one operation's `auth()` runs have done so far. */
interface OperationState {
  /** Where `auth()` is: tells discovery failures apart from the rest. */
  phase?: 'discovery' | 'authorization';
  discovered?: OAuthDiscoveryState;
  requestState?: string;
  verifier?: string;
  /** The tokens the operation read: a refresh that failed with them deletes only them. */
  tokensRead?: OAuthTokens;
  /** Set while a code is exchanged: discovery and verifier then come from the flow under way. */
  exchanging?: boolean;
  /** The sign-in request the operation started. */
  redirected?: { authorizationUrl: URL; state: string };
}

function scopeOf(scope: string | undefined): { scope?: string } {
  return scope ? { scope } : {};
}

function definedOnly(record: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Adds `offline_access` to the requested scopes when the authorization server lists it (SEP-2207
 * allows it then, and only then): without a refresh token, an unattended worker cannot keep a
 * connection once the access token lapses. OpenID Connect asks for `prompt=consent` with it.
 */
function withOfflineAccess(url: URL, discovery: OAuthDiscoveryState | undefined): void {
  const offered = discovery?.authorizationServerMetadata?.scopes_supported?.includes('offline_access') ?? false;
  const scopes = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
  if (!offered || scopes.includes('offline_access')) return;
  url.searchParams.set('scope', [...scopes, 'offline_access'].join(' '));
  if (!url.searchParams.getAll('prompt').includes('consent')) url.searchParams.append('prompt', 'consent');
}
