import { type Hook, jsonSchemaTool, type Tool } from '@agentloom/sdk';
import type { EgressDeniedError } from '../adapters/outbound/index.js';
import type { WorkflowReleaseSnapshot } from '../domain/release-snapshot.js';

/**
 * The name of the platform's own input check that refuses a run when the egress policy refused
 * one of its agent's MCP servers at run start: the SDK records the run `failed` (`blocked`) with
 * this name as its failure code, so the run says `egress-denied` instead of waiting to be retried.
 */
export const egressRefusalHookName = 'egress-denied';

/**
 * A UserPromptSubmit hook that refuses the run's input with the refusals' messages (each names
 * the server and the egress rule). An agent's MCP tools are only known once its server answers,
 * so a refused server cannot be replaced tool by tool: the run ends before any model call.
 */
export function egressRefusalHook(reasons: readonly string[]): Hook<'UserPromptSubmit'> {
  return { name: egressRefusalHookName, handle: () => ({ decision: 'deny', reason: reasons.join('; ') }) };
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
