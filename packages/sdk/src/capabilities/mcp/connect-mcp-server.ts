import { z } from 'zod';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import type { Tool } from '../tools/tool.js';
import { createDenyingMcpApprovalPort, type McpApprovalPort } from './approval-port.js';
import { checkAuthorization } from './mcp-authorization.js';
import { McpConnection, type McpServerTransport } from './mcp-connection.js';
import { type McpTaskLedger, MemoryMcpTaskLedger } from './mcp-task-ledger.js';
import { type McpCallScope, type McpToolDefinition, toolFromMcp } from './mcp-tools.js';

/** Options of `connectMcpServer`: how to reach the server, plus what to expose and how. */
export type McpServerOptions = McpServerTransport & {
  /** Names the server in errors and tool names: letters, digits, `_` and `-`, at most 32. */
  name: string;
  /**
   * Where server questions (elicitation, `input_required`) go. `'run'`: to the user of the agent
   * run that made the call — journaled, the run waits until a person answers through
   * `RunClient.answerElicitation` (ADR 0038); outside an agent run they are declined. Default:
   * deny them all.
   */
  approvals?: McpApprovalPort | 'run';
  /** Durable link from operation ids to MCP tasks, so a takeover continues a task (K-3). Default: in memory. */
  taskLedger?: McpTaskLedger;
  /** Expose only these MCP tools (by MCP name). */
  include?: readonly string[];
  /** Hide these MCP tools. */
  exclude?: readonly string[];
  /** Prefix of the names the model sees. Default `<name>__`. */
  toolNamePrefix?: string;
  /** The MCP SDK's own per-request timeout. Default 10 minutes: the attempt timeout (C-10) normally ends a call first. */
  requestTimeoutMs?: number;
  /** Run tools that allow tasks (`taskSupport: optional`) as tasks too. Default false. */
  preferTasks?: boolean;
  /** Time-to-live asked for new tasks. Default 1 hour. */
  taskTtlMs?: number;
};

/** A live connection and the tools it exposes. */
export interface McpServerConnection {
  readonly name: string;
  /** The server's tools as `Tool`s; their definitions stay fixed for the connection's life (N-4). */
  readonly tools: readonly Tool[];
  /** The server's instructions, if it sent any (add them to the prompt when useful). */
  readonly instructions: string | undefined;
  /** Ends the connection (and the server process, or the HTTP session). */
  close(): Promise<void>;
}

const nameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'letters, digits, _ and - only, 1 to 32 characters');

/**
 * Connects to an MCP server over stdio or streamable HTTP (N-8) and exposes its tools as `Tool`s.
 * A stdio server can run inside a sandbox bound to one run's view, so that a file-capable server
 * enforces the same boundary as the file tools (F-2). Connection failures during a call are
 * retryable and reconnect on the next attempt; elicitation goes to the approval port; task tools
 * are correlated with the operation id through the task ledger.
 *
 * @example
 * const everything = await connectMcpServer({ name: 'everything', transport: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-everything'] });
 * const agent = new Agent({ name: 'a', mode: 'react', model, prompt, tools: everything.tools, store });
 * // … after the runs: await everything.close();
 */
export async function connectMcpServer(options: McpServerOptions): Promise<McpServerConnection> {
  const parsedName = nameSchema.safeParse(options.name);
  if (!parsedName.success)
    throw new InvalidConfigurationError('MCP server', [{ path: 'name', message: parsedName.error.issues[0]?.message ?? '' }]);
  if (options.transport === 'streamable-http' && options.authorization) checkAuthorization(options.name, options.authorization);
  const connection = new McpConnection(options.name, options, options.approvals ?? createDenyingMcpApprovalPort());
  try {
    const client = await connection.ready();
    const definitions: McpToolDefinition[] = [];
    let cursor: string | undefined;
    do {
      const after = cursor;
      const page = await connection.request(undefined, (current) => current.listTools(after ? { cursor: after } : undefined));
      definitions.push(...(page.tools as McpToolDefinition[]));
      cursor = page.nextCursor;
    } while (cursor);
    const include = options.include ? new Set(options.include) : undefined;
    const exclude = new Set(options.exclude ?? []);
    const scope = scopeOf(options);
    const ledger = options.taskLedger ?? new MemoryMcpTaskLedger();
    const tools = definitions
      .filter((definition) => (!include || include.has(definition.name)) && !exclude.has(definition.name))
      .map((definition) =>
        toolFromMcp(connection, definition, {
          prefix: options.toolNamePrefix ?? `${options.name}__`,
          preferTasks: options.preferTasks ?? false,
          settings: {
            ledger,
            requestTimeoutMs: options.requestTimeoutMs ?? 600_000,
            taskTtlMs: options.taskTtlMs ?? 3_600_000,
          },
          ...(scope ? { scope } : {}),
        }),
      );
    const seen = new Set<string>();
    const duplicates = tools.filter((item) => seen.has(item.name) || !seen.add(item.name));
    if (duplicates.length > 0) {
      throw new InvalidConfigurationError(
        `MCP server "${options.name}"`,
        duplicates.map((item) => ({ path: item.name, message: 'two MCP tools map to this name' })),
      );
    }
    return {
      name: options.name,
      tools: Object.freeze(tools),
      instructions: client.getInstructions(),
      close: () => connection.close(),
    };
  } catch (error) {
    await connection.close();
    throw connection.mapError(error);
  }
}

function scopeOf(options: McpServerOptions): McpCallScope | undefined {
  if (options.transport !== 'stdio' || !options.sandbox) return undefined;
  const { workspace, scope } = options.sandbox;
  return workspace.persistent ? { sessionId: scope.sessionId } : { sessionId: scope.sessionId, runId: scope.runId };
}
