import type { ToolExecutionContext } from '../tools/tool.js';
import { approvalRequestId, type McpApprovalDecision, type McpApprovalPort, type McpApprovalRequest } from './approval-port.js';

/** One tool call in flight on a connection, for attributing server questions to it. */
export interface CallInFlight {
  context: ToolExecutionContext;
  tool: string;
  /** The MCP task the call waits on, once known. */
  mcpTaskId?: string;
  /** Questions asked so far within this attempt (orders identical questions). */
  questions: number;
}

/** The parameters of an `elicitation/create` request, as this client reads them. */
export interface ElicitationParameters {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
  _meta?: Record<string, unknown>;
}

/** What the client answers to the server. */
export type ElicitationAnswer =
  | { action: 'accept'; content?: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' };

const relatedTaskKey = 'io.modelcontextprotocol/related-task';

/**
 * Routes a server's question (elicitation, or a task in `input_required`) to the approval port
 * (N-8). The question is attributed to the call it belongs to: by the related task id when the
 * server sends one, otherwise to the only call in flight. With several calls in flight and no task
 * id, the origin is ambiguous and the question is declined: a question must never be answered on
 * behalf of another run. The wait is bounded by the attributed call's signal.
 */
export async function answerElicitation(
  server: string,
  approvals: McpApprovalPort | 'run',
  calls: ReadonlySet<CallInFlight>,
  parameters: ElicitationParameters,
  requestSignal: AbortSignal,
): Promise<ElicitationAnswer> {
  const related = (parameters._meta?.[relatedTaskKey] as { taskId?: unknown } | undefined)?.taskId;
  const candidates = [...calls].filter((call) => typeof related !== 'string' || call.mcpTaskId === related);
  if (candidates.length !== 1) return { action: 'decline' };
  const call = candidates[0] as CallInFlight;
  call.questions += 1;
  const mode = parameters.mode ?? 'form';
  const request: McpApprovalRequest = {
    id: approvalRequestId({
      operationId: call.context.operationId,
      server,
      message: parameters.message,
      requestedSchema: parameters.requestedSchema,
      ...(parameters.url ? { url: parameters.url } : {}),
      ordinal: call.questions,
    }),
    kind: 'mcp-elicitation',
    subject: {
      runId: call.context.runId,
      sessionId: call.context.sessionId,
      taskId: call.context.taskId,
      operationId: call.context.operationId,
      attempt: call.context.attempt,
    },
    source: { server, tool: call.tool, ...(typeof related === 'string' ? { mcpTaskId: related } : {}) },
    message: parameters.message,
    mode,
    ...(parameters.requestedSchema ? { requestedSchema: parameters.requestedSchema } : {}),
    ...(parameters.url ? { url: parameters.url } : {}),
  };
  const signal = AbortSignal.any([call.context.signal, requestSignal]);
  if (approvals === 'run') return askTheRun(call, request, signal);
  let decision: McpApprovalDecision;
  try {
    decision = await approvals.request(request, { signal });
  } catch {
    return { action: 'cancel' };
  }
  if (decision.decision === 'approve') {
    // A form answer always carries content, so that the MCP SDK can fill in the requested
    // schema's defaults for the fields the answer leaves out (SEP-1034).
    const content = decision.content ?? (mode === 'form' ? {} : undefined);
    return { action: 'accept', ...(content ? { content } : {}) };
  }
  return decision.decision === 'deny' ? { action: 'decline' } : { action: 'cancel' };
}

/**
 * Puts the question to the user of the agent run that made the call (ADR 0038): journaled with
 * its schema, answered by a person. The key is the request id's question digest and ordinal, so
 * the same question asked again by a retry of the same call finds the journaled one (and an answer
 * already given). Outside an agent run (no `requestElicitation`) the question is declined; when
 * the wait is abandoned (the server cancelled its request, the attempt ended) the server gets an
 * error — a question is never accepted on anyone's behalf.
 */
async function askTheRun(call: CallInFlight, request: McpApprovalRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
  const ask = call.context.requestElicitation;
  if (!ask) return { action: 'decline' };
  const abandoned = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  abandoned.catch(() => {});
  const key = `mcp-elicitation:${request.id.slice(request.id.indexOf(':mcp-elicitation:') + ':mcp-elicitation:'.length)}`;
  const answer = await Promise.race([
    ask({
      key,
      server: request.source.server,
      message: request.message,
      mode: request.mode,
      ...(request.requestedSchema ? { requestedSchema: request.requestedSchema } : {}),
      ...(request.url ? { url: request.url } : {}),
    }),
    abandoned,
  ]);
  if (answer.action === 'accept') return { action: 'accept', content: answer.content ?? {} };
  return { action: answer.action };
}
