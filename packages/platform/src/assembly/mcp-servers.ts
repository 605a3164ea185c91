import { connectMcpServer, type McpServerConnection, type McpServerOptions } from '@agentloom/sdk/capabilities/mcp';

/** An MCP server resource's stored content (see `mcpServerContentSchema`). */
export type McpServerContent =
  | { transport: 'streamable-http'; url: string; headers?: Record<string, string | { secret: string }> }
  | { transport: 'stdio'; command: string; args?: string[]; env?: Record<string, string | { secret: string }> };

/** Reads a space secret by name (see `AssemblyPorts.readSecret`). */
type ReadSecret = (name: string) => Promise<string | undefined>;

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
 * reached through the outbound module's `fetch` (P-15.1).
 */
export async function mcpServerOptions(
  name: string,
  content: McpServerContent,
  ports: { readSecret: ReadSecret; fetch: typeof globalThis.fetch },
  extra: Pick<McpServerOptions, 'toolNamePrefix' | 'requestTimeoutMs'> = {},
): Promise<McpServerOptions> {
  if (content.transport === 'streamable-http')
    return {
      name,
      transport: 'streamable-http',
      url: content.url,
      headers: await resolveValues(content.headers, ports.readSecret),
      fetch: ports.fetch,
      ...extra,
    };
  const env = await resolveValues(content.env, ports.readSecret);
  return {
    name,
    transport: 'stdio',
    command: content.command,
    args: content.args ?? [],
    ...(Object.keys(env).length > 0 ? { env } : {}),
    ...extra,
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
