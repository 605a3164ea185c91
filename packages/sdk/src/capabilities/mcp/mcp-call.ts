import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { abortableSleep } from '../../core/abortable-sleep.js';
import type { ToolExecutionContext } from '../tools/tool.js';
import type { McpConnection } from './mcp-connection.js';
import type { ToolResultLike } from './mcp-content.js';
import type { CallInFlight } from './mcp-elicitation.js';
import { McpRequestError, McpToolError, mapMcpError } from './mcp-errors.js';
import type { McpTaskAction, McpTaskLedger, McpTaskRecord } from './mcp-task-ledger.js';

/** How one MCP tool is called. */
export interface McpCallSettings {
  tool: string;
  /** Run the call as an MCP task (the tool requires it, or allows it and tasks are preferred). */
  asTask: boolean;
  ledger: McpTaskLedger;
  /** The SDK's own request timeout; the attempt's signal (C-10) normally ends a call first. */
  requestTimeoutMs: number;
  taskTtlMs: number;
}

/**
 * Runs one attempt of an MCP tool call and returns the raw result. A plain call is one
 * `tools/call`. A task call (N-8, K-3) first looks the operation up in the task ledger: when an
 * earlier attempt — in this process or in one that crashed — created a task, this attempt
 * continues it (`tasks/get`, `tasks/result`, in the task's HTTP session) instead of calling the
 * tool again; only when the server no longer knows the task is the tool called again. The ledger
 * is written before the task is awaited, and every attempt's choice is appended to its history.
 * Aborting (attempt timeout, stop) ends the wait without cancelling the task, so a retry or a
 * takeover can still continue it.
 */
export async function callMcpTool(
  connection: McpConnection,
  settings: McpCallSettings,
  args: Record<string, unknown>,
  context: ToolExecutionContext,
): Promise<ToolResultLike> {
  const call: CallInFlight = { context, tool: settings.tool, questions: 0 };
  connection.calls.add(call);
  const options = { signal: context.signal, timeout: settings.requestTimeoutMs };
  try {
    if (!settings.asTask) {
      return (await connection.request(context.signal, (client) =>
        client.callTool({ name: settings.tool, arguments: args }, CallToolResultSchema, options),
      )) as ToolResultLike;
    }
    const record = await settings.ledger.get(context.operationId);
    if (record) {
      const continued = await continueTask(connection, record, call, options);
      if (continued !== undefined) {
        await settings.ledger.put(withHistory(record, context.attempt, 'continued', record.taskId));
        return continued;
      }
    }
    const created = await connection.request(context.signal, (client) =>
      client.request({ method: 'tools/call', params: { name: settings.tool, arguments: args } }, CreateTaskResultSchema, {
        ...options,
        task: { ttl: settings.taskTtlMs },
      }),
    );
    const client = await connection.ready(context.signal);
    const taskId = created.task.taskId;
    const action: McpTaskAction = record ? 're-executed' : 'created';
    const base: McpTaskRecord = record ?? {
      operationId: context.operationId,
      server: connection.server,
      tool: settings.tool,
      taskId,
      history: [],
    };
    const sessionId = connection.sessionId;
    await settings.ledger.put(
      withHistory({ ...base, taskId, ...(sessionId ? { mcpSessionId: sessionId } : {}) }, context.attempt, action, taskId),
    );
    call.mcpTaskId = taskId;
    return await awaitTask(client, connection.server, settings.tool, taskId, options);
  } catch (error) {
    throw connection.mapError(error, context.signal);
  } finally {
    connection.calls.delete(call);
  }
}

/** Continues a recorded task; `undefined` when the server no longer knows it (session or task gone). */
async function continueTask(
  connection: McpConnection,
  record: McpTaskRecord,
  call: CallInFlight,
  options: { signal: AbortSignal; timeout: number },
): Promise<ToolResultLike | undefined> {
  const attached = record.mcpSessionId !== undefined && record.mcpSessionId !== connection.sessionId;
  let client: Client;
  try {
    client = attached
      ? await connection.attach(record.mcpSessionId as string, options.signal)
      : await connection.ready(options.signal);
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
  call.mcpTaskId = record.taskId;
  try {
    return await awaitTask(client, connection.server, record.tool, record.taskId, options);
  } catch (error) {
    if (isGone(error) || isGone(mapMcpError(connection.server, error, { connectionLost: false }))) return undefined;
    throw error;
  } finally {
    if (attached) await client.close().catch(() => {});
  }
}

/** A task unknown to the server (-32602), or an HTTP session the server no longer has (404). */
function isGone(error: unknown): boolean {
  const record = error as { cause?: unknown } | undefined;
  if (McpRequestError.isInstance(error)) return error.mcpCode === -32602 || error.mcpCode === 404;
  if (error instanceof StreamableHTTPError && error.code === 404) return true;
  return record?.cause !== undefined && record.cause !== error && isGone(record.cause);
}

const terminal = new Set(['completed', 'failed', 'cancelled']);

/** Polls a task until it ends (or needs input, which `tasks/result` then delivers), and returns its result. */
async function awaitTask(
  client: Client,
  server: string,
  tool: string,
  taskId: string,
  options: { signal: AbortSignal; timeout: number },
): Promise<ToolResultLike> {
  const tasks = client.experimental.tasks;
  for (;;) {
    const task = await tasks.getTask(taskId, options);
    if (task.status === 'cancelled') throw new McpToolError(server, tool, `MCP task ${taskId} was cancelled`);
    if (terminal.has(task.status) || task.status === 'input_required') {
      try {
        return (await tasks.getTaskResult(taskId, CallToolResultSchema, options)) as ToolResultLike;
      } catch (error) {
        if (task.status === 'failed' && !options.signal.aborted) {
          throw new McpToolError(server, tool, `MCP task ${taskId} failed${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
        }
        throw error;
      }
    }
    await abortableSleep(Math.min(Math.max(task.pollInterval ?? 500, 50), 5_000), options.signal);
  }
}

function withHistory(record: McpTaskRecord, attempt: number, action: McpTaskAction, taskId: string): McpTaskRecord {
  return { ...record, history: [...record.history, { attempt, action, taskId, at: Date.now() }] };
}
