import {
  type Agent,
  createWorkflow,
  InvalidDefinitionError,
  type RunStore,
  type StateDefinition,
  type Tool,
  type Workflow,
} from '@agentloom/sdk';
import type { AgentReleaseSnapshot, WorkflowReleaseSnapshot } from '../domain/release-snapshot.js';
import { assembleAgent } from './assemble-agent.js';
import { AssemblyError, type AssemblyPorts } from './assembly-ports.js';
import { buildPinnedHttpTool } from './http-tool.js';

/** What building a workflow reads from the platform, beyond what its tools need. */
export interface WorkflowAssemblyPorts extends Pick<AssemblyPorts, 'readResourceVersion' | 'readSecret' | 'fetch'> {
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
 * under `definition.`. Every problem is thrown together as an `AssemblyError`; building starts
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
        ...(ports.fetch ? { fetch: ports.fetch } : {}),
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
    const built = await buildPinnedHttpTool({ ...pinned, name }, ports, `bindings.tools.${name}`, issues);
    if (built) tools.push(built);
  }
  if (issues.length > 0) throw new AssemblyError(issues);
  const policy = (snapshot.definition.policy ?? {}) as Record<string, unknown>;
  const definition = {
    ...snapshot.definition,
    policy: { ...policy, ...(ports.leaseMs !== undefined ? { leaseMs: ports.leaseMs } : {}) },
  };
  try {
    return createWorkflow(definition, { agents, tools, store: ports.store });
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
