import {
  type Agent,
  BubblewrapSandbox,
  type Sandbox,
  type StateDefinition,
  type Workflow,
  type WorkspaceScope,
} from '@agentloom/sdk';
import { readReleaseSnapshotText } from '../adapters/database/repositories/run-repository.js';
import type { AppRow } from '../adapters/database/schema.js';
import { databaseAssemblyPorts } from '../application/releases/database-assembly-ports.js';
import { databaseWorkflowPorts } from '../application/releases/workflow-lookups.js';
import { assembleAgent, assembleWorkflow } from '../assembly/index.js';
import { McpConnectionSet } from '../assembly/mcp-servers.js';
import { parseReleaseSnapshot } from '../domain/release-snapshot.js';
import { capabilitiesMeet, releaseNeedsIsolation, type WorkerCapabilities } from '../domain/run-requirements.js';
import { MissingCapabilityError } from './job-outcome.js';
import type { WorkerContext } from './worker-context.js';

/** A built agent or workflow and what to call when its run ends (closes its MCP connections). */
export interface ReleaseBuild {
  agent: Agent | Workflow<StateDefinition>;
  release: () => Promise<void>;
}

/**
 * Builds the agent or workflow of a release from its stored snapshot (read through the snapshot
 * schema) and keeps it a while. An agent holds no run state, so one serves every run of its
 * release; it is rebuilt after `cacheMs` so a rotated connection key (resolved at construction,
 * D-P3) reaches new runs within that time. A release without MCP servers is built once and reused
 * (a failed build is not kept); one whose agents or workflow use MCP servers is built for each
 * run: its servers are connected at run start, and `release` closes them when the run ends
 * (never shared between runs). A workflow is built from its release alone, each agent node from
 * the agent release it pins (P-6.9), all on the worker's run store.
 */
export class ReleaseBuildCache {
  private readonly builds = new Map<string, { agent: Promise<Agent | Workflow<StateDefinition>>; builtAt: number }>();
  /** The sandbox stdio MCP servers start in on a worker that can isolate (made on first use). */
  private mcpSandbox: Sandbox | undefined;

  constructor(
    private readonly context: WorkerContext,
    private readonly capabilities: WorkerCapabilities,
    private readonly cacheMs = 10_000,
  ) {}

  /**
   * The agent or workflow of `releaseId` (of `app`), built now or taken from the cache. On the
   * run's `finalMcpAttempt` an unreachable MCP server ends the run (`mcp-unreachable`) rather
   * than failing the build, which would hand the run back for another try. With the run's `scope`,
   * on a worker that can isolate, an agent's stdio MCP servers start inside the run's sandbox
   * (ADR 0035); a build with MCP connections is never cached, so the scope is always this run's.
   */
  async build(
    releaseId: string,
    app: AppRow,
    { finalMcpAttempt = false, scope }: { finalMcpAttempt?: boolean; scope?: WorkspaceScope } = {},
  ): Promise<ReleaseBuild> {
    const now = Date.now();
    const cached = this.builds.get(releaseId);
    if (cached && now - cached.builtAt < this.cacheMs) return { agent: await cached.agent, release: async () => {} };
    const { database, runStore, factStore, config } = this.context;
    const connections = new McpConnectionSet(finalMcpAttempt);
    const options = {
      store: runStore,
      ...(factStore ? { factStore } : {}),
      leaseMs: config.runLeaseMs,
      mcpConnections: connections,
    };
    try {
      const snapshot = parseReleaseSnapshot(await readReleaseSnapshotText(database, releaseId));
      let agent: Agent | Workflow<StateDefinition>;
      if (snapshot.kind === 'workflow')
        agent = await assembleWorkflow(snapshot, databaseWorkflowPorts(this.context, app, options));
      else {
        // Checked before anything is built or run: this worker never executes what it cannot isolate.
        const requirements = { isolation: releaseNeedsIsolation(snapshot) };
        if (!capabilitiesMeet(this.capabilities, requirements)) throw new MissingCapabilityError(requirements);
        const mcpSandbox =
          scope && this.capabilities.isolation
            ? { sandbox: () => this.sandbox(), scope, readOnlyPaths: config.mcpSandboxPaths ?? [] }
            : undefined;
        agent = await assembleAgent(snapshot, {
          ...databaseAssemblyPorts(this.context, app, options),
          ...(mcpSandbox ? { mcpSandbox } : {}),
        });
      }
      if (connections.size === 0) this.builds.set(releaseId, { agent: Promise.resolve(agent), builtAt: now });
      return { agent, release: () => connections.closeAll() };
    } catch (error) {
      await connections.closeAll();
      throw error;
    }
  }

  /**
   * The worker's bubblewrap sandbox for stdio MCP servers (construction checks bubblewrap once):
   * no network unless `AGENTLOOM_MCP_SANDBOX_NETWORK=host`.
   */
  private sandbox(): Sandbox {
    this.mcpSandbox ??= new BubblewrapSandbox({ network: this.context.config.mcpSandboxNetwork === 'host' });
    return this.mcpSandbox;
  }
}
