import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { Workspace } from '../../sandbox/workspace.js';
import type { WorkspaceScope } from '../../sandbox/workspace-view.js';
import type { McpApprovalPort } from './approval-port.js';
import type { McpAuthorization } from './mcp-authorization.js';
import { answerElicitation, type CallInFlight, type ElicitationParameters } from './mcp-elicitation.js';
import { McpConnectionError, mapMcpError } from './mcp-errors.js';
import { McpOAuthProvider } from './mcp-oauth-provider.js';

/** A server started as a child process and spoken to over stdin/stdout. */
export interface StdioServer {
  transport: 'stdio';
  command: string;
  args?: readonly string[];
  /** The server's environment. Default: a few safe variables (PATH, HOME …), never the whole host environment. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /**
   * Run the server inside a sandbox, seeing only one run's view (F-2: file-capable servers enforce
   * the same boundary as the file tools). Calls from any other run or session are refused.
   */
  sandbox?: { sandbox: Sandbox; workspace: Workspace; scope: WorkspaceScope; readOnlyPaths?: readonly string[] };
}

/** A server reached over MCP streamable HTTP. */
export interface StreamableHttpServer {
  transport: 'streamable-http';
  url: string | URL;
  headers?: Readonly<Record<string, string>>;
  /**
   * How to sign in when the server requires MCP authorization (OAuth 2.1): a person through the
   * authorization code flow, or a machine client with its own credentials. Default: none.
   */
  authorization?: McpAuthorization;
  /**
   * The `fetch` every request to the server goes through, sign-in included (default: the global
   * one). A host that checks where its server may connect (an egress policy) passes its own; an
   * error it throws that states `retryable: false` reaches the caller unchanged.
   */
  fetch?: typeof globalThis.fetch;
}

/** How to reach a server. */
export type McpServerTransport = StdioServer | StreamableHttpServer;

const clientInfo = { name: 'agentloom', version: '0.1.0' };
const stderrKept = 4096;

/**
 * One client connection to an MCP server, reconnected on demand: after the server process exits
 * or the HTTP session breaks, the next call connects again (the failed call itself reported a
 * retryable `McpConnectionError`). It tracks the calls in flight so that server questions can be
 * attributed to the right call (see `answerElicitation`).
 */
export class McpConnection {
  readonly server: string;
  readonly calls = new Set<CallInFlight>();
  private readonly spec: McpServerTransport;
  private readonly approvals: McpApprovalPort | 'run';
  /** The OAuth side of the connection, when the server is reached with `authorization`. */
  private readonly authorization: McpOAuthProvider | undefined;
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private lost = false;
  private stderrTail = '';

  constructor(server: string, spec: McpServerTransport, approvals: McpApprovalPort | 'run') {
    this.server = server;
    this.spec = spec;
    this.approvals = approvals;
    this.authorization =
      spec.transport === 'streamable-http' && spec.authorization
        ? new McpOAuthProvider(server, spec.url, spec.authorization)
        : undefined;
  }

  /** Whether the current connection was seen to close (its failures are connection failures). */
  get connectionLost(): boolean {
    return this.lost;
  }

  /** The streamable HTTP session id of the current connection, if any. */
  get sessionId(): string | undefined {
    const transport = this.client?.transport as { sessionId?: string } | undefined;
    return transport?.sessionId;
  }

  /** The last lines the server wrote to stderr (stdio servers), for diagnosis. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** The connected client, connecting (again) when needed. */
  async ready(signal?: AbortSignal): Promise<Client> {
    if (this.client && !this.lost) return this.client;
    this.connecting ??= this.connect(signal).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /**
   * Runs one request on the connected client. When the server asks for a sign-in first (a 401,
   * or a 403 asking for more scope, which the MCP SDK answers by starting an authorization), the
   * sign-in is completed through the redirect handler and the request sent once more: the server
   * refused it before running it. Without a handler that can complete it, it fails with
   * `McpAuthorizationRequiredError`.
   */
  async request<T>(signal: AbortSignal | undefined, operation: (client: Client) => Promise<T>): Promise<T> {
    const authorization = this.authorization;
    const attempt = async (): Promise<T> => {
      const client = await this.ready(signal);
      return authorization ? authorization.run(() => operation(client)) : operation(client);
    };
    try {
      return await attempt();
    } catch (error) {
      if (!authorization || !(error instanceof UnauthorizedError)) throw error;
      await authorization.signIn(error, signal);
      return attempt();
    }
  }

  /** The typed failure for an error of this connection (authorization failures first, then `mapMcpError`). */
  mapError(error: unknown, signal?: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason ?? error;
    return (
      this.authorization?.classify(error) ??
      mapMcpError(this.server, error, { ...(signal ? { signal } : {}), connectionLost: this.lost })
    );
  }

  /**
   * A second client attached to an existing streamable HTTP session (no new initialisation), to
   * reach a task created by an earlier process in that session. Close it after use.
   */
  async attach(sessionId: string, signal?: AbortSignal): Promise<Client> {
    if (this.spec.transport !== 'streamable-http')
      throw new McpConnectionError(this.server, 'only HTTP sessions can be attached');
    const client = this.newClient();
    const transport = new StreamableHTTPClientTransport(new URL(this.spec.url), {
      sessionId,
      requestInit: { headers: { ...(this.spec.headers ?? {}) } },
      ...(this.authorization ? { authProvider: this.authorization } : {}),
      ...(this.spec.fetch ? { fetch: this.spec.fetch } : {}),
    });
    try {
      await client.connect(transport, signal ? { signal } : {});
      return client;
    } catch (error) {
      throw mapMcpError(this.server, error, { ...(signal ? { signal } : {}), connectionLost: true });
    }
  }

  /** Closes the connection (ending the HTTP session on the server). */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
    await transport?.terminateSession?.().catch(() => {});
    await client.close().catch(() => {});
  }

  private async connect(signal?: AbortSignal, signedIn = false): Promise<Client> {
    if (this.client) await this.client.close().catch(() => {});
    const client = this.newClient();
    const transport = await this.transport();
    this.lost = false;
    client.onclose = () => {
      if (this.client === client) this.lost = true;
    };
    const authorization = this.authorization;
    try {
      const connecting = () => client.connect(transport, signal ? { signal } : {});
      await (authorization ? authorization.run(connecting) : connecting());
    } catch (error) {
      await client.close().catch(() => {});
      if (authorization && error instanceof UnauthorizedError && !signedIn && !signal?.aborted) {
        await authorization.signIn(error, signal);
        return this.connect(signal, true);
      }
      const mapped =
        authorization?.classify(error) ??
        mapMcpError(this.server, error, { ...(signal ? { signal } : {}), connectionLost: true });
      if (McpConnectionError.isInstance(mapped) && this.stderrTail !== '') {
        throw new McpConnectionError(this.server, `${mapped.message}; server stderr: ${this.stderrTail.trim()}`, {
          cause: error,
        });
      }
      throw mapped;
    }
    this.client = client;
    return client;
  }

  private newClient(): Client {
    // applyDefaults: the SDK fills in the requested schema's defaults the answer leaves out (SEP-1034).
    const client = new Client(clientInfo, { capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      answerElicitation(this.server, this.approvals, this.calls, request.params as ElicitationParameters, extra.signal),
    );
    return client;
  }

  private async transport(): Promise<Transport> {
    const spec = this.spec;
    if (spec.transport === 'streamable-http') {
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: { ...(spec.headers ?? {}) } },
        ...(this.authorization ? { authProvider: this.authorization } : {}),
        ...(spec.fetch ? { fetch: spec.fetch } : {}),
      });
    }
    let launch = {
      command: spec.command,
      args: [...(spec.args ?? [])],
      env: spec.env ? { ...spec.env } : undefined,
      cwd: spec.cwd,
    };
    if (spec.sandbox) {
      const view = await spec.sandbox.workspace.prepare(spec.sandbox.scope);
      const sandboxed = spec.sandbox.sandbox.launch({
        view,
        command: spec.command,
        args: spec.args ?? [],
        ...(spec.env ? { environment: spec.env } : {}),
        ...(spec.sandbox.readOnlyPaths ? { readOnlyPaths: spec.sandbox.readOnlyPaths } : {}),
      });
      launch = { command: sandboxed.command, args: sandboxed.args, env: sandboxed.env, cwd: sandboxed.cwd };
    }
    const transport = new StdioClientTransport({
      command: launch.command,
      args: launch.args,
      ...(launch.env ? { env: launch.env } : {}),
      ...(launch.cwd ? { cwd: launch.cwd } : {}),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-stderrKept);
    });
    return transport;
  }
}
