import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AgentLoomError, hasErrorCode } from '../../core/errors/agentloom-error.js';

/**
 * The MCP server could not be reached, or the connection broke during the call (process exited,
 * socket reset, HTTP 5xx, session lost). Retryable: the next attempt reconnects.
 */
export class McpConnectionError extends AgentLoomError {
  readonly server: string;
  readonly retryable = true;
  /** Read by a failure classification that knows this field; the default one uses `retryable`. */
  readonly failureKind = 'connection';

  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super('mcp-connection-failed', `MCP server "${server}": ${message}`, options);
    this.server = server;
  }

  static override isInstance(error: unknown): error is McpConnectionError {
    return hasErrorCode(error, 'mcp-connection-failed');
  }
}

/**
 * The server answered a request with a JSON-RPC error. `mcpCode` is the JSON-RPC code. Internal
 * errors (-32603) and the SDK's own request timeout (-32001) are retryable; invalid requests,
 * unknown methods and invalid parameters are not.
 */
export class McpRequestError extends AgentLoomError {
  readonly server: string;
  readonly mcpCode: number | undefined;
  readonly retryable: boolean;

  constructor(server: string, mcpCode: number | undefined, message: string, options?: { cause?: unknown }) {
    super('mcp-request-failed', `MCP server "${server}" refused the request (${mcpCode ?? 'no code'}): ${message}`, options);
    this.server = server;
    this.mcpCode = mcpCode;
    this.retryable = mcpCode === -32603 || mcpCode === -32001;
  }

  static override isInstance(error: unknown): error is McpRequestError {
    return hasErrorCode(error, 'mcp-request-failed');
  }
}

/**
 * The tool ran and reported a failure (`isError: true`, or a failed or cancelled task): a business
 * failure the model should read, never retried by the runtime.
 */
export class McpToolError extends AgentLoomError {
  readonly server: string;
  readonly tool: string;
  readonly retryable = false;

  constructor(server: string, tool: string, message: string) {
    super('mcp-tool-failed', message === '' ? `MCP tool "${tool}" of "${server}" failed` : message);
    this.server = server;
    this.tool = tool;
  }

  static override isInstance(error: unknown): error is McpToolError {
    return hasErrorCode(error, 'mcp-tool-failed');
  }
}

const connectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** Whether `error` is a socket-level failure (its code or its cause's code): the peer was not reachable. */
export function isNetworkFailure(error: unknown): boolean {
  const record = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof record.code === 'string' ? record.code : record.cause?.code;
  return typeof code === 'string' && connectionCodes.has(code);
}

/**
 * Maps whatever the MCP SDK threw during a request to a typed failure, by error type and code,
 * never by message text: JSON-RPC errors to `McpRequestError`; transport failures (closed
 * connection -32000, socket error codes, HTTP errors, or any failure after the connection was seen
 * to close) to `McpConnectionError`. Aborts are returned unchanged: the engine owns them, and so
 * is a typed refusal of the server's own `fetch` (an error with a string `code` that states
 * `retryable: false`, such as a host's egress policy): no reconnection can change its answer.
 */
export function mapMcpError(server: string, error: unknown, state: { signal?: AbortSignal; connectionLost: boolean }): unknown {
  if (state.signal?.aborted) return state.signal.reason ?? error;
  if (AgentLoomError.isInstance(error)) return error;
  const record = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    retryable?: unknown;
  };
  if (record.retryable === false && typeof record.code === 'string') return error;
  const message = typeof record.message === 'string' ? record.message : String(error);
  const code = record.code;
  if (record.name === 'McpError' && typeof code === 'number') {
    if (code === -32000) return new McpConnectionError(server, message, { cause: error });
    return new McpRequestError(server, code, message, { cause: error });
  }
  // The SDK's StreamableHTTPError does not set `name`: recognised by its class.
  if (error instanceof StreamableHTTPError) {
    const status = error.code;
    if (status !== undefined && status >= 400 && status < 500 && status !== 404 && status !== 408 && status !== 429) {
      return new McpRequestError(server, status, message, { cause: error });
    }
    return new McpConnectionError(server, message, { cause: error });
  }
  if (isNetworkFailure(error) || state.connectionLost) return new McpConnectionError(server, message, { cause: error });
  return error;
}
