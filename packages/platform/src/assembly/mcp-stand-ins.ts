import { type Hook, jsonSchemaTool, type Tool } from '@agentloom/sdk';
import type { EgressDeniedError } from '../adapters/outbound/index.js';
import type { WorkflowReleaseSnapshot } from '../domain/release-snapshot.js';

/**
 * The name of the platform's own input check that refuses a run when the egress policy refused
 * one of its agent's MCP servers at run start: the SDK records the run `failed` (`blocked`) with
 * this name as its failure code, so the run says `egress-denied` instead of waiting to be retried.
 */
export const egressRefusalHookName = 'egress-denied';

/** Likewise for a server still unreachable at the run's last try: the run ends `mcp-unreachable`. */
export const unreachableHookName = 'mcp-unreachable';

/**
 * A UserPromptSubmit hook named `name` that refuses the run's input with `reasons` (each names the
 * server and why). An agent's MCP tools are only known once its server answers, so a refused or
 * unreachable server cannot be replaced tool by tool: the run ends before any model call.
 */
export function inputRefusalHook(name: string, reasons: readonly string[]): Hook<'UserPromptSubmit'> {
  return { name, handle: () => ({ decision: 'deny', reason: reasons.join('; ') }) };
}

/** A workflow's MCP server that could not be reached at the run's last try (not retried further). */
export class McpUnreachableError extends Error {
  readonly code = 'mcp-unreachable';
  readonly retryable = false;
  constructor(server: string, cause: unknown) {
    super(
      `mcp-unreachable: the MCP server "${server}" could not be reached at the run's last attempt (${(cause as Error)?.message ?? String(cause)}).`,
    );
    this.name = 'McpUnreachableError';
  }
}

/** The MCP tools a workflow's nodes name on the server bound as `binding`. */
export function nodeToolNames(snapshot: WorkflowReleaseSnapshot, binding: string): string[] {
  const nodes = (snapshot.definition.nodes ?? []) as { server?: string; tool?: string }[];
  return [...new Set(nodes.filter((node) => node.server === binding && node.tool).map((node) => node.tool as string))];
}

/** Tools standing in for a workflow's MCP tools under their MCP names, each call answered by `execute`. */
export function standInTools(names: readonly string[], description: (tool: string) => string, execute: () => never): Tool[] {
  return names.map((tool) =>
    jsonSchemaTool({ name: tool, description: description(tool), parameters: { type: 'object' }, execute }),
  );
}

/**
 * The MCP tools of a workflow's server the egress policy refused at run start: the nodes that call
 * them fail with the refusal (`egress-denied`, not retried), as a call to the server would have.
 */
export function refusedMcpTools(snapshot: WorkflowReleaseSnapshot, binding: string, refusal: EgressDeniedError): Tool[] {
  return standInTools(
    nodeToolNames(snapshot, binding),
    (tool) => `The MCP tool "${tool}" of "${binding}" (its server is refused by the egress policy).`,
    () => {
      throw refusal;
    },
  );
}
