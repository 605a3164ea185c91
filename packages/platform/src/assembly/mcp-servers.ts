import { createWorkspace, type Sandbox, type WorkspaceScope } from '@agentloom/sdk';
import {
  connectMcpServer,
  type McpAuthorization,
  type McpServerConnection,
  type McpServerOptions,
} from '@agentloom/sdk/capabilities/mcp';
import { agentFileMounts } from '../domain/agent-files.js';

/** How a stored MCP server signs in over OAuth (see `mcpServerContentSchema`). */
export interface McpOAuthSettings {
  clientId?: string;
  clientSecret?: { secret: string };
  scope?: string;
}

/** An MCP server resource's stored content (see `mcpServerContentSchema`). */
export type McpServerContent =
  | {
      transport: 'streamable-http';
      url: string;
      headers?: Record<string, string | { secret: string }>;
      oauth?: McpOAuthSettings;
    }
  | { transport: 'stdio'; command: string; args?: string[]; env?: Record<string, string | { secret: string }> };

/** Reads a space secret by name (see `AssemblyPorts.readSecret`). */
type ReadSecret = (name: string) => Promise<string | undefined>;

/**
 * The SDK authorization of an MCP server resource that needs an OAuth sign-in (see
 * `AssemblyPorts.mcpAuthorization`); throws `McpSignInRequiredError` when nobody connected it.
 */
type ReadMcpAuthorization = (resourceId: string, oauth: McpOAuthSettings) => Promise<McpAuthorization>;

/** An MCP server that needs an OAuth sign-in has none in this space: someone must connect it from the console. */
export class McpSignInRequiredError extends Error {
  readonly code = 'mcp-sign-in-required';
  constructor(readonly server: string) {
    super(`The MCP server "${server}" needs a sign-in: connect it on the MCP servers page of the console.`);
    this.name = 'McpSignInRequiredError';
  }
}

/** A space secret an MCP server's headers or environment name does not exist. */
export class McpSecretMissingError extends Error {
  readonly code = 'secret-missing';
  constructor(readonly secret: string) {
    super(`The secret "${secret}" does not exist in this space.`);
    this.name = 'McpSecretMissingError';
  }
}

/** Connecting (initialise and list tools) took longer than allowed. */
export class McpConnectTimeoutError extends Error {
  readonly code = 'mcp-timeout';
  constructor(server: string, timeoutMs: number) {
    super(`The MCP server "${server}" did not answer within ${timeoutMs} ms.`);
    this.name = 'McpConnectTimeoutError';
  }
}

/** How long connecting to one MCP server (initialise and list tools) may take before a run or a test gives up. */
export const mcpConnectTimeoutMs = 15_000;

/** Resolves `{ secret }` values now (never stored in a snapshot); throws `McpSecretMissingError`. */
async function resolveValues(
  values: Record<string, string | { secret: string }> | undefined,
  readSecret: ReadSecret,
): Promise<Record<string, string>> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (typeof value === 'string') resolved[key] = value;
    else {
      const secret = await readSecret(value.secret);
      if (secret === undefined) throw new McpSecretMissingError(value.secret);
      resolved[key] = secret;
    }
  }
  return resolved;
}

/**
 * The SDK options of a stored MCP server under `name` (the prefix of the tool names the model
 * sees, `<name>__<tool>`, unless `toolNamePrefix` says otherwise): header and environment
 * secrets resolved at connection time, as custom HTTP tools resolve theirs, and an HTTP server
 * reached through the outbound module's `fetch` (P-15.1). A server that needs an OAuth sign-in
 * gets the SDK authorization of resource `extra.resourceId` (tokens kept sealed per space, used
 * and refreshed through the SDK's token store), or `McpSignInRequiredError` when nobody connected it.
 * The server's questions (elicitation) go to the user of the run that made the call (ADR 0038).
 */
export async function mcpServerOptions(
  name: string,
  content: McpServerContent,
  ports: { readSecret: ReadSecret; fetch: typeof globalThis.fetch; mcpAuthorization?: ReadMcpAuthorization },
  extra: Pick<McpServerOptions, 'toolNamePrefix' | 'requestTimeoutMs'> & { resourceId?: string } = {},
): Promise<McpServerOptions> {
  const { resourceId, ...sdkExtra } = extra;
  if (content.transport === 'streamable-http') {
    const headers = await resolveValues(content.headers, ports.readSecret);
    let authorization: McpAuthorization | undefined;
    if (content.oauth) {
      if (!ports.mcpAuthorization || resourceId === undefined) throw new McpSignInRequiredError(name);
      authorization = await ports.mcpAuthorization(resourceId, content.oauth);
    }
    return {
      name,
      transport: 'streamable-http',
      url: content.url,
      headers,
      fetch: ports.fetch,
      ...(authorization ? { authorization } : {}),
      approvals: 'run',
      ...sdkExtra,
    };
  }
  const env = await resolveValues(content.env, ports.readSecret);
  return {
    name,
    transport: 'stdio',
    command: content.command,
    args: content.args ?? [],
    ...(Object.keys(env).length > 0 ? { env } : {}),
    approvals: 'run',
    ...sdkExtra,
  };
}

/** Where a run's stdio MCP servers start when its worker can isolate (see `AssemblyPorts.mcpSandbox`). */
export interface McpSandboxPort {
  /** An isolating sandbox (bubblewrap), made when a stdio server first needs it. */
  sandbox(): Sandbox;
  /** The run whose view the servers see; their tools refuse calls from any other run (or session, when persistent). */
  scope: WorkspaceScope;
  /** Host directories shown read-only (the servers' programs and packages), from `AGENTLOOM_MCP_SANDBOX_PATHS`. */
  readOnlyPaths: readonly string[];
}

/**
 * The options of a stdio server started inside the run's sandbox when the worker gave one
 * (`ports.mcpSandbox`, ADR 0035); other servers, and every server without a sandbox, unchanged.
 * The server sees the run's view as its commands do — the run's (or, with a persistent sandbox,
 * the session's) work directory at `/work`, the agent's wiki and files read-only under `/mounts`
 * — plus system programs and the worker's `readOnlyPaths`, with no network; it acts as the
 * sandbox user, never as host root. Its tools refuse calls from any other run or session.
 */
export function sandboxedStdio(
  options: McpServerOptions,
  snapshot: { environment: { persistentSandbox: boolean } },
  ports: { fileRoot: string; mcpSandbox?: McpSandboxPort },
): McpServerOptions {
  const port = ports.mcpSandbox;
  if (options.transport !== 'stdio' || !port) return options;
  const sandbox = port.sandbox();
  const workspace = createWorkspace({
    root: ports.fileRoot,
    persistent: snapshot.environment.persistentSandbox,
    mounts: agentFileMounts(ports.fileRoot),
    sandbox,
  });
  return {
    ...options,
    sandbox: { sandbox, workspace, scope: port.scope, readOnlyPaths: port.readOnlyPaths },
  };
}

/**
 * `connectMcpServer` bounded by `timeoutMs`: the SDK's connect takes no signal, so a connection
 * that arrives after the deadline is closed as soon as it does (no server session is left open).
 */
export async function connectWithin(options: McpServerOptions, timeoutMs: number): Promise<McpServerConnection> {
  const pending = connectMcpServer(options);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpConnectTimeoutError(options.name, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([pending, deadline]);
  } catch (error) {
    if (error instanceof McpConnectTimeoutError)
      void pending.then(
        (late) => late.close(),
        () => undefined,
      );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The SDK name of an MCP server resource inside one agent or workflow: its resource name made of
 * letters, digits, `_` and `-` (at most 32, the SDK's limit), with a number added when two
 * resources would get the same name. The model sees the server's tools as `<name>__<tool>`.
 */
export function mcpServerNameOf(resourceName: string, taken: ReadonlySet<string>): string {
  const slug =
    resourceName
      .replaceAll(/[^A-Za-z0-9_-]+/g, '-')
      .replaceAll(/^-+|-+$/g, '')
      .slice(0, 32) || 'mcp';
  if (!taken.has(slug)) return slug;
  for (let index = 2; ; index += 1) {
    const candidate = `${slug.slice(0, 32 - String(index).length - 1)}-${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The MCP connections one run opened, closed together when the run ends (connect at run start,
 * close after: a run never shares a connection, so an HTTP session or a stdio process never
 * outlives the run that needed it).
 */
export class McpConnectionSet {
  private readonly open: McpServerConnection[] = [];

  /**
   * @param finalAttempt this is the run's last try (AGENTLOOM_MCP_CONNECT_ATTEMPTS): a server that
   * cannot be reached now ends the run `failed` with code `mcp-unreachable` instead of the run
   * being handed back for another try.
   */
  constructor(readonly finalAttempt = false) {}

  /** Connects (bounded by `timeoutMs`) and keeps the connection for `closeAll`. */
  async connect(options: McpServerOptions, timeoutMs = mcpConnectTimeoutMs): Promise<McpServerConnection> {
    const connection = await connectWithin(options, timeoutMs);
    this.open.push(connection);
    return connection;
  }

  /** How many connections are open. */
  get size(): number {
    return this.open.length;
  }

  /** Closes every connection (ending HTTP sessions and stdio processes); never throws. */
  async closeAll(): Promise<void> {
    const closing = this.open.splice(0);
    await Promise.all(closing.map((connection) => connection.close().catch(() => undefined)));
  }
}
