import { createHash } from 'node:crypto';

/**
 * A question the running agent cannot answer itself and routes to a person or a policy: today an
 * MCP server's elicitation (`elicitation/create`, a task in `input_required`, N-8). Plain JSON, so
 * that an approval service can store it and its decision durably; `id` is stable, so the same
 * question asked again after a retry or a takeover can be matched to a decision already made.
 */
export interface McpApprovalRequest {
  /** Stable id: derived from the operation, the source and the question (plus an ordinal). */
  id: string;
  kind: 'mcp-elicitation';
  /** Trusted identity of the call that caused the question, when it is known. */
  subject: { runId?: string; sessionId?: string; taskId?: string; operationId?: string; attempt?: number };
  /** Where the question comes from. */
  source: { server: string; tool?: string; mcpTaskId?: string };
  /** The question, as the server wrote it. */
  message: string;
  /** `form`: answer with `content` matching `requestedSchema`; `url`: the person must visit `url`. */
  mode: 'form' | 'url';
  /** JSON Schema of the expected answer (form mode). */
  requestedSchema?: Record<string, unknown>;
  url?: string;
}

/** The answer to an approval request. */
export type McpApprovalDecision =
  /** Accepted; form mode may carry the answer. */
  | { decision: 'approve'; content?: Record<string, string | number | boolean | string[]>; reason?: string }
  /** Explicitly refused. */
  | { decision: 'deny'; reason: string }
  /** Dismissed without a choice (closed, timed out). */
  | { decision: 'cancel'; reason: string };

/**
 * Where an MCP server's questions go (N-8: elicitation and `input_required` to the approval port).
 * Unlike the hooks layer's `ApprovalPort` (a yes or no on a tool call), a form question needs an
 * answer (`content`); the hooks layer wires its durable approvals behind this port. Until then
 * `createDenyingMcpApprovalPort` refuses everything. An implementation must honour `signal` (the
 * attempt's timeout, stop and deadline): a wait never outlives the call that asked.
 */
export interface McpApprovalPort {
  request(request: McpApprovalRequest, options: { signal: AbortSignal }): Promise<McpApprovalDecision>;
}

/**
 * An approval port that denies every request, with a reason. The default wherever no port is
 * configured: an unattended agent never accepts on a person's behalf.
 */
export function createDenyingMcpApprovalPort(
  reason = 'no approval port is configured; requests are denied by default',
): McpApprovalPort {
  return { request: async () => ({ decision: 'deny', reason }) };
}

/**
 * Builds the stable id of an approval request: the same operation asking the same question of the
 * same source gets the same id on every attempt and after a takeover (`ordinal` tells repeated
 * identical questions within one attempt apart).
 */
export function approvalRequestId(parts: {
  operationId: string | undefined;
  server: string;
  message: string;
  requestedSchema?: unknown;
  url?: string;
  ordinal: number;
}): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([parts.server, parts.message, parts.requestedSchema ?? null, parts.url ?? null]))
    .digest('hex')
    .slice(0, 16);
  return `${parts.operationId ?? 'no-operation'}:mcp-elicitation:${digest}:${parts.ordinal}`;
}
