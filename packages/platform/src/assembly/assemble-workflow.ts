import {
  type Agent,
  createWorkflow,
  InvalidDefinitionError,
  type RunStore,
  type StateDefinition,
  type Tool,
  type Workflow,
} from '@agentloom/sdk';
import { McpAuthorizationRequiredError } from '@agentloom/sdk/capabilities/mcp';
import { findEgressDenial } from '../adapters/outbound/index.js';
import type { AgentReleaseSnapshot, WorkflowReleaseSnapshot } from '../domain/release-snapshot.js';
import { assembleAgent } from './assemble-agent.js';
import { assembleTeams } from './assemble-teams.js';
import { AssemblyError, type AssemblyPorts } from './assembly-ports.js';
import { pinnedHttpTool } from './http-tool.js';
import {
  McpSecretMissingError,
  type McpServerContent,
  McpSignInRequiredError,
  mcpServerNameOf,
  mcpServerOptions,
} from './mcp-servers.js';
import { McpUnreachableError, nodeToolNames, refusedMcpTools, standInTools } from './mcp-stand-ins.js';
import { buildPinnedResource } from './pinned-resource.js';
import { pinnedRemoteAgent } from './remote-agents.js';

/** What building a workflow reads from the platform, beyond what its tools need. */
export interface WorkflowAssemblyPorts
  extends Pick<AssemblyPorts, 'readResourceVersion' | 'readSecret' | 'fetch' | 'mcpConnections' | 'mcpAuthorization'> {
  /** A pinned agent release's snapshot and the assembly ports of its own app (file root, space). */
  readAgentRelease(releaseId: string): Promise<{ snapshot: AgentReleaseSnapshot; ports: AssemblyPorts }>;
  /** The one store of the workflow and every agent it calls. */
  store: RunStore;
  /** The lease of the workflow's runs and its agents' inner runs. */
  leaseMs?: number;
}

/**
 * Turns a workflow release snapshot into an SDK workflow through the public definition format:
 * each agent name becomes the agent of its pinned release (built like any agent run, on the same
 * store, R-6), each tool name the custom HTTP tool of its pinned version, and `createWorkflow`
 * builds the definition, reporting the SDK's graph issues (`WorkflowIssue`s) with their paths
 * under `definition.`; each team binding becomes an SDK team of its members' pinned releases
 * (N-12), embedded where a team node names it. Every problem is thrown together as an `AssemblyError`; building starts
 * nothing, so publish runs it as its dry run.
 */
export async function assembleWorkflow(
  snapshot: WorkflowReleaseSnapshot,
  ports: WorkflowAssemblyPorts,
): Promise<Workflow<StateDefinition>> {
  const issues: { path: string; message: string }[] = [];
  const agents: Record<string, Agent> = {};
  for (const [name, pinned] of Object.entries(snapshot.agents)) {
    const release = await ports.readAgentRelease(pinned.releaseId);
    try {
      agents[name] = await assembleAgent(release.snapshot, {
        ...release.ports,
        store: ports.store,
        ...(ports.leaseMs !== undefined ? { leaseMs: ports.leaseMs } : {}),
        fetch: ports.fetch,
        ...(ports.mcpConnections ? { mcpConnections: ports.mcpConnections } : {}),
      });
    } catch (error) {
      if (!(error instanceof AssemblyError)) throw error;
      for (const issue of error.issues)
        issues.push({
          path: `bindings.agents.${name}`,
          message: `agent release ${pinned.version}: ${issue.path}: ${issue.message}`,
        });
    }
  }
  const tools: Tool[] = [];
  for (const [name, pinned] of Object.entries(snapshot.tools)) {
    const built = await buildPinnedResource({ ...pinned, name }, ports, `bindings.tools.${name}`, issues, pinnedHttpTool);
    if (built) tools.push(built);
  }
  // A remote agent is a capability node's tool under its binding name (N-13).
  for (const [name, pinned] of Object.entries(snapshot.remoteAgents ?? {})) {
    const built = await buildPinnedResource(
      { ...pinned, name },
      ports,
      `bindings.remoteAgents.${name}`,
      issues,
      pinnedRemoteAgent,
    );
    if (built) tools.push(built);
  }
  const mcpServers = await workflowMcpServers(snapshot, ports, issues);
  const teams = await assembleTeams(snapshot, ports, issues);
  if (issues.length > 0) throw new AssemblyError(issues);
  const policy = (snapshot.definition.policy ?? {}) as Record<string, unknown>;
  const definition = {
    ...snapshot.definition,
    policy: { ...policy, ...(ports.leaseMs !== undefined ? { leaseMs: ports.leaseMs } : {}) },
  };
  try {
    return createWorkflow(definition, { agents, tools, mcpServers, teams, store: ports.store });
  } catch (error) {
    if (error instanceof InvalidDefinitionError)
      throw new AssemblyError(
        error.problems.map((problem) => ({
          path: problem.path ? `definition.${problem.path}` : 'definition',
          message: problem.message,
        })),
      );
    throw error;
  }
}

/**
 * The tools of each MCP server binding, by binding name, as MCP tool nodes name them (`server` +
 * `tool`, the tool's MCP name). With `mcpConnections` (a run) each server is connected now and
 * closed by the caller when the run ends; without (a publish's dry run, which starts nothing,
 * P-1.8) each node's tool stands in as a placeholder that refuses to run, so the graph is checked
 * while the tool's existence is checked when a run connects (and by the resource's test call).
 */
async function workflowMcpServers(
  snapshot: WorkflowReleaseSnapshot,
  ports: WorkflowAssemblyPorts,
  issues: { path: string; message: string }[],
): Promise<Record<string, readonly Tool[]>> {
  const servers: Record<string, readonly Tool[]> = {};
  const bindings = snapshot.mcpServers ?? {};
  const connections = ports.mcpConnections;
  if (!connections) {
    // Nothing connects, but the secrets are resolved: a missing one refuses the publish.
    for (const [name, pinned] of Object.entries(bindings)) {
      const content = (await ports.readResourceVersion(pinned.resourceId, pinned.version)).content as McpServerContent;
      await mcpServerOptions(name, content, ports, { resourceId: pinned.resourceId }).catch((error: unknown) => {
        if (error instanceof McpSignInRequiredError) return; // connected later, before a run needs it
        if (!(error instanceof McpSecretMissingError)) throw error;
        issues.push({ path: `bindings.mcpServers.${name}`, message: error.message });
      });
    }
    for (const name of Object.keys(bindings))
      servers[name] = standInTools(
        nodeToolNames(snapshot, name),
        (tool) => `The MCP tool "${tool}" of "${name}" (connected when a run starts).`,
        () => {
          throw new Error('A publish dry run never calls MCP tools.');
        },
      );
    return servers;
  }
  const taken = new Set<string>();
  for (const [name, pinned] of Object.entries(bindings)) {
    const content = (await ports.readResourceVersion(pinned.resourceId, pinned.version)).content as McpServerContent;
    const serverName = mcpServerNameOf(name, taken);
    taken.add(serverName);
    try {
      const options = await mcpServerOptions(serverName, content, ports, { toolNamePrefix: '', resourceId: pinned.resourceId });
      servers[name] = (await connections.connect(options)).tools;
    } catch (error) {
      // Nobody signed in (or the sign-in lapsed): the nodes calling it fail with that reason, not retried.
      if (error instanceof McpSignInRequiredError || McpAuthorizationRequiredError.isInstance(error)) {
        const refusal = new McpSignInRequiredError(name);
        servers[name] = standInTools(
          nodeToolNames(snapshot, name),
          (tool) => `The MCP tool "${tool}" of "${name}" (its server needs a sign-in).`,
          () => {
            throw refusal;
          },
        );
        continue;
      }
      // Refused by the egress policy (P-15.1): the nodes calling it fail with the refusal, never retried.
      const refusal = findEgressDenial(error);
      if (refusal) {
        servers[name] = refusedMcpTools(snapshot, name, refusal);
        continue;
      }
      if (!(error instanceof McpSecretMissingError)) {
        if (!connections.finalAttempt) throw error;
        // Still unreachable at the run's last attempt: the nodes calling it fail, typed, not retried.
        const unreachable = new McpUnreachableError(name, error);
        servers[name] = standInTools(
          nodeToolNames(snapshot, name),
          (tool) => `The MCP tool "${tool}" of "${name}" (its server could not be reached).`,
          () => {
            throw unreachable;
          },
        );
        continue;
      }
      issues.push({ path: `bindings.mcpServers.${name}`, message: error.message });
    }
  }
  return servers;
}
