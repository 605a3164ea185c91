import { createHash } from 'node:crypto';
import { z } from 'zod';
import { WorkspaceAccessError } from '../../sandbox/sandbox-errors.js';
import { type Tool, tool } from '../tools/tool.js';
import { callMcpTool, type McpCallSettings } from './mcp-call.js';
import type { McpConnection } from './mcp-connection.js';
import { resultToText } from './mcp-content.js';
import { McpToolError } from './mcp-errors.js';

/** The parts of an MCP tool definition this client uses. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
}

/** Who may call a tool of a connection bound to one run's view (F-2). */
export interface McpCallScope {
  sessionId: string;
  /** Omitted for a persistent session view, which all runs of the session share. */
  runId?: string;
}

/**
 * The name the model sees: the prefix plus the MCP name, with characters model APIs refuse
 * replaced by `_`, and cut to 64 characters with a short hash when longer.
 */
export function modelToolName(prefix: string, name: string): string {
  const candidate = `${prefix}${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (candidate.length <= 64) return candidate;
  return `${candidate.slice(0, 55)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

/** A zod schema from the tool's JSON Schema; a permissive object when the schema cannot be converted. */
function parametersOf(inputSchema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/**
 * Wraps one MCP tool as a `Tool` (N-8). Each attempt is bounded by the engine's attempt signal
 * (C-10) and maps failures to typed errors: connection failures retryable, JSON-RPC refusals by
 * code, a result with `isError` a business failure (`McpToolError`, never retried).
 */
export function toolFromMcp(
  connection: McpConnection,
  definition: McpToolDefinition,
  options: { prefix: string; settings: Omit<McpCallSettings, 'tool' | 'asTask'>; preferTasks: boolean; scope?: McpCallScope },
): Tool {
  const support = definition.execution?.taskSupport ?? 'forbidden';
  const settings: McpCallSettings = {
    ...options.settings,
    tool: definition.name,
    asTask: support === 'required' || (support === 'optional' && options.preferTasks),
  };
  const description =
    definition.description?.trim() || definition.title || `Tool "${definition.name}" of the MCP server "${connection.server}".`;
  return tool({
    name: modelToolName(options.prefix, definition.name),
    description,
    parameters: parametersOf(definition.inputSchema),
    execute: async (args, context) => {
      const scope = options.scope;
      if (scope && (context.sessionId !== scope.sessionId || (scope.runId !== undefined && context.runId !== scope.runId))) {
        throw new WorkspaceAccessError(
          'other-scope',
          definition.name,
          `this MCP server is bound to another ${scope.runId ? 'run' : 'session'}`,
        );
      }
      const result = await callMcpTool(connection, settings, (args ?? {}) as Record<string, unknown>, context);
      if (result.isError) throw new McpToolError(connection.server, definition.name, resultToText(result));
      return resultToText(result);
    },
  });
}
