import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type Agent,
  type AgentRun,
  RunDetachedError,
  type RunHandle,
  RunNotFoundError,
  RunOwnedElsewhereError,
  type StateDefinition,
  type Workflow,
  type WorkflowRun,
} from '@agentloom/sdk';
import type { PlatformContext } from '../application/context.js';
import { assembleAgent, assembleWorkflow } from '../assembly/index.js';
import { McpConnectionSet } from '../assembly/mcp-servers.js';
import type { AppRow } from '../database/schema.js';
import type { AgentReleaseSnapshot, WorkflowReleaseSnapshot } from '../domain/release-snapshot.js';
import { databaseAssemblyPorts } from '../releases/database-assembly-ports.js';
import { databaseWorkflowPorts } from '../releases/workflow-lookups.js';
import { nudgeWebhook } from '../webhooks/index.js';
import type { ClaimedJob, RunRequirements } from './dispatcher.js';
import { capabilitiesMeet, releaseNeedsIsolation } from './run-requirements.js';
import { detectWorkerCapabilities, type WorkerCapabilities } from './worker-capabilities.js';
import { WorkerRegistry } from './worker-registry.js';

/** A job of an app being deleted whose run has no stop request yet: handed back until the deletion stops it. */
class AppDeletingError extends Error {
  constructor(appId: string) {
    super(`The app ${appId} is being deleted.`);
    this.name = 'AppDeletingError';
  }
}

/** A job claimed while the worker drains: handed back at once, never started here. */
class WorkerDrainingError extends Error {
  constructor(workerId: string) {
    super(`The worker ${workerId} is draining.`);
    this.name = 'WorkerDrainingError';
  }
}

/**
 * The run's release needs what this worker lacks (a release published after the run was
 * enqueued added `run_command`): the job goes back with the new requirements for a worker that
 * has them (NOT-18).
 */
class MissingCapabilityError extends Error {
  constructor(readonly requirements: RunRequirements) {
    super('The run needs a worker that can isolate commands (bubblewrap).');
    this.name = 'MissingCapabilityError';
  }
}

/** Options of a `RunWorker`. */
export interface RunWorkerOptions {
  /** Runs executed at once; defaults to the configured `workerConcurrency`. */
  concurrency?: number;
  /** Wait between claims when no job was ready, in ms. Default 100. */
  idlePollMs?: number;
  /** What this worker can execute; default: probed (`detectWorkerCapabilities`). */
  capabilities?: WorkerCapabilities;
  /** Called once the SDK owns a run here, with the SDK's owner id (process logs, crash tests). */
  onRunStarted?: (runId: string, sdkOwnerId: string) => void;
  /** How often the worker marks itself alive in `workers` and looks for a drain request, in ms. Default 5,000. */
  heartbeatMs?: number;
  /** How long a draining worker lets calls in flight settle before it hands a run over (`run.detach`), in ms. Default 5,000. */
  handOverSettleMs?: number;
  /** Called when the worker starts draining, with the runs it hands over (process logs, tests). */
  onDraining?: (runIds: string[]) => void;
}

/**
 * A worker: claims run jobs from the dispatcher, builds each run's agent from the release the run
 * is pinned to (resolved once at its first start, D-P5; the same on every later dispatch, P-6.5)
 * and calls `agent.run({ sessionId, runId })`. The SDK decides whether that creates, takes over or
 * answers a finished run (P-11.4), so a worker that claims a run a dead worker left behind resumes
 * the same journal and never redoes a saved result. While the run goes on the worker renews the
 * job's lease; `RunOwnedElsewhereError` (a live owner elsewhere) hands the job back until that
 * owner's lease ends.
 *
 * The worker registers in `workers` with its capabilities, heartbeats, and ends `gone`. Draining
 * (an operator's `POST /admin/workers/:id/drain`, seen at the next heartbeat, or SIGTERM to
 * `agentloom worker`) stops claiming, hands every run over with the SDK's `run.detach()` — calls
 * in flight settle within a bound, the SDK lease is released without ending the run — and hands
 * each job back claimable at once, so another worker continues the run now, not after the lease.
 */
export class RunWorker {
  readonly id = `worker_${hostname()}_${process.pid}_${randomUUID().slice(0, 8)}`;
  private readonly concurrency: number;
  private readonly idlePollMs: number;
  /** What this worker can execute; it claims only runs these meet (NOT-18). */
  readonly capabilities: WorkerCapabilities;
  private readonly executing = new Map<string, Promise<void>>();
  /** The SDK handles of the runs executing here (agent and workflow runs alike: one `RunHandle`), for a hand-over. */
  private readonly handles = new Map<string, RunHandle>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly registry: WorkerRegistry;
  private registered: Promise<void> = Promise.resolve();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private markDrained: () => void = () => {};
  /** Resolves once a drain (asked over HTTP or by `drain()`) has handed every run over and the worker is `gone`. */
  readonly drained = new Promise<void>((resolve) => {
    this.markDrained = resolve;
  });
  /**
   * Agents built lately, by release id. An agent holds no run state, so one serves every run of
   * its release; it is rebuilt after `agentCacheMs` so a rotated connection key (resolved at
   * construction, D-P3) reaches new runs within that time.
   */
  private readonly agents = new Map<string, { agent: Promise<Agent | Workflow<StateDefinition>>; builtAt: number }>();
  private readonly agentCacheMs = 10_000;

  constructor(
    private readonly services: PlatformContext,
    private readonly options: RunWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? services.config.workerConcurrency;
    this.idlePollMs = options.idlePollMs ?? 100;
    this.registry = new WorkerRegistry(services.database, services.now);
    this.capabilities = options.capabilities ?? detectWorkerCapabilities();
  }

  /** Registers the worker in `workers`, then claims jobs and heartbeats until stopped or drained. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.registered = this.registry
      .register({
        id: this.id,
        capabilities: this.capabilities,
        maxConcurrentRuns: this.concurrency,
      })
      .catch((error: unknown) => {
        this.services.logger.warn(
          { workerId: this.id, err: { message: (error as Error).message } },
          'worker registration failed',
        );
      });
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatMs ?? 5_000);
    this.schedule(0);
  }

  /**
   * Stops claiming; waits up to `waitMs` for the runs in progress (their leases hand the rest
   * over), then marks the worker `gone`. A drain in progress is awaited instead.
   */
  async stop(waitMs = 0): Promise<void> {
    if (this.draining) return this.draining;
    this.stopClaiming();
    if (waitMs > 0 && this.executing.size > 0) {
      await Promise.race([
        Promise.allSettled([...this.executing.values()]),
        new Promise((resolve) => setTimeout(resolve, waitMs)),
      ]);
    }
    await this.markGone();
  }

  /**
   * Hands every run over and stops (idempotent): no more claims; each run in progress is
   * detached (its calls in flight settle within `handOverSettleMs`, its SDK lease is released
   * without ending it) and its job handed back claimable now; then the worker is `gone`.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      this.stopClaiming();
      await this.registered;
      await this.registry.requestDrain(this.id).catch(() => undefined);
      const runIds = [...this.executing.keys()];
      this.services.logger.info({ workerId: this.id, runs: runIds.length }, 'worker draining: handing runs over');
      this.options.onDraining?.(runIds);
      const settleMs = this.options.handOverSettleMs ?? 5_000;
      for (const handle of this.handles.values()) void handle.detach({ settleMs });
      await Promise.allSettled([...this.executing.values()]);
      await this.markGone();
      this.markDrained();
    })();
    return this.draining;
  }

  private stopClaiming(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    clearInterval(this.heartbeatTimer);
  }

  private async markGone(): Promise<void> {
    await this.registered;
    await this.registry.markGone(this.id).catch(() => {});
  }

  /** Marks the worker alive; a `draining` state set by an operator starts the hand-over. */
  private async heartbeat(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.registered;
      const state = await this.registry.heartbeat(this.id);
      if (state === 'draining' && !this.stopped) void this.drain();
    } catch (error) {
      this.services.logger.warn({ workerId: this.id, err: { message: (error as Error).message } }, 'worker heartbeat failed');
    }
  }

  /** The run ids executing here now. */
  get activeRuns(): string[] {
    return [...this.executing.keys()];
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), delayMs);
  }

  private async poll(): Promise<void> {
    let claimed: ClaimedJob[] = [];
    try {
      claimed = await this.services.dispatcher.claim(
        this.id,
        this.concurrency - this.executing.size,
        this.services.config.runLeaseMs,
        this.capabilities,
      );
    } catch (error) {
      this.services.logger.warn({ workerId: this.id, err: { message: (error as Error).message } }, 'claim failed');
    }
    for (const job of claimed) {
      if (this.stopped) {
        // Claimed while the worker stopped or began draining: hand the job straight back rather than leave it to its lease.
        await this.services.dispatcher.release(job, new Date()).catch(() => {});
        continue;
      }
      const execution = this.execute(job).finally(() => this.executing.delete(job.runId));
      this.executing.set(job.runId, execution);
    }
    this.schedule(claimed.length > 0 ? 0 : this.idlePollMs);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { dispatcher, logger, config } = this.services;
    const renewal = setInterval(
      () => {
        dispatcher.renew(job, config.runLeaseMs).catch(() => {});
      },
      Math.max(100, Math.floor(config.runLeaseMs / 3)),
    );
    try {
      const started = await this.startRun(job);
      if (!started) {
        await dispatcher.complete(job);
        return;
      }
      const result = await started;
      logger.info({ workerId: this.id, runId: job.runId, status: result.status, attempt: job.attempt }, 'run ended');
      await dispatcher.complete(job);
      await nudgeWebhook(this.services, job.runId).catch(() => {});
    } catch (error) {
      if (RunDetachedError.isInstance(error) || error instanceof WorkerDrainingError) {
        // Handed over (a drain): the job is claimable again now, by a worker that is not draining.
        logger.info({ workerId: this.id, runId: job.runId }, 'run handed over');
        await dispatcher.release(job, this.services.now()).catch(() => {});
        return;
      }
      if (error instanceof RunOwnedElsewhereError) {
        await dispatcher.release(job, new Date(error.leaseExpiresAt + 50)).catch(() => {});
        return;
      }
      if (error instanceof RunNotFoundError) {
        // Deleted (a tombstone, P-13.2): never taken over, never retried.
        logger.info({ workerId: this.id, runId: job.runId }, 'run deleted; job dropped');
        await dispatcher.complete(job).catch(() => {});
        return;
      }
      if (error instanceof AppDeletingError) {
        await dispatcher.release(job, new Date(Date.now() + config.runLeaseMs)).catch(() => {});
        return;
      }
      if (error instanceof MissingCapabilityError) {
        logger.info({ workerId: this.id, runId: job.runId }, 'run needs isolation this worker lacks; handed back');
        await dispatcher.release(job, new Date(), error.requirements).catch(() => {});
        return;
      }
      logger.warn(
        { workerId: this.id, runId: job.runId, err: { name: (error as Error).name, message: (error as Error).message } },
        'run failed to execute',
      );
      const backoff = Math.min(30_000, 500 * 2 ** Math.min(job.attempt, 6));
      await dispatcher.release(job, new Date(Date.now() + backoff)).catch(() => {});
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * The agent or workflow of a release and what to do when its run ends. A release without MCP
   * servers is built once and reused for `agentCacheMs` (a failed build is not kept). A release
   * whose agents or workflow use MCP servers is built for each run: its servers are connected at
   * run start, and `release` closes them when the run ends (never shared between runs). A
   * workflow is built from its release alone, each agent node from the agent release it pins
   * (P-6.9), all on the worker's run store.
   */
  private async agentOf(
    releaseId: string,
    app: AppRow,
  ): Promise<{ agent: Agent | Workflow<StateDefinition>; release: () => Promise<void> }> {
    const now = Date.now();
    const cached = this.agents.get(releaseId);
    if (cached && now - cached.builtAt < this.agentCacheMs) return { agent: await cached.agent, release: async () => {} };
    const { database, runStore } = this.services;
    const connections = new McpConnectionSet();
    try {
      const release = await database.selectFrom('app_releases').selectAll().where('id', '=', releaseId).executeTakeFirstOrThrow();
      const parsed = JSON.parse(release.config_snapshot) as AgentReleaseSnapshot | WorkflowReleaseSnapshot;
      let agent: Agent | Workflow<StateDefinition>;
      if (parsed.kind === 'workflow')
        agent = await assembleWorkflow(
          parsed,
          databaseWorkflowPorts(this.services, app, {
            store: runStore,
            leaseMs: this.services.config.runLeaseMs,
            mcpConnections: connections,
          }),
        );
      else {
        // Checked before anything is built or run: this worker never executes what it cannot isolate.
        const requirements = { isolation: releaseNeedsIsolation(parsed) };
        if (!capabilitiesMeet(this.capabilities, requirements)) throw new MissingCapabilityError(requirements);
        agent = await assembleAgent(
          parsed,
          databaseAssemblyPorts(this.services, app, {
            store: runStore,
            leaseMs: this.services.config.runLeaseMs,
            mcpConnections: connections,
          }),
        );
      }
      if (connections.size === 0) this.agents.set(releaseId, { agent: Promise.resolve(agent), builtAt: now });
      return { agent, release: () => connections.closeAll() };
    } catch (error) {
      await connections.closeAll();
      throw error;
    }
  }

  /** Builds the run's agent and starts (or resumes) it; undefined when the run no longer exists. */
  private async startRun(job: ClaimedJob) {
    const { database, runClient } = this.services;
    const run = await database.selectFrom('runs').selectAll().where('id', '=', job.runId).executeTakeFirst();
    if (!run) return undefined;
    const app = await database.selectFrom('apps').selectAll().where('id', '=', run.app_id).executeTakeFirst();
    if (!app) return undefined;
    if (app.state === 'deleting') {
      // NOT-21: no new work for an app being deleted. A run already ended is done; a run its
      // deletion has asked to stop is handed to the SDK only to settle (a taker honours the stop
      // right after acquiring, S1); any other run waits for the deletion to stop it.
      const description = await runClient.describeRun(run.id);
      if (description.status !== 'pending' && description.status !== 'running') return undefined;
      if (!description.stopRequest) throw new AppDeletingError(app.id);
    }
    if (run.release_id === null && app.latest_release_id !== null) {
      await database
        .updateTable('runs')
        .set({ release_id: app.latest_release_id })
        .where('id', '=', run.id)
        .where('release_id', 'is', null)
        .execute();
    }
    const { release_id: releaseId } = await database
      .selectFrom('runs')
      .select('release_id')
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    if (!releaseId) throw new Error(`The app ${app.id} has no release to run.`);
    const { agent, release } = await this.agentOf(releaseId, app);
    let handle: AgentRun | WorkflowRun;
    try {
      if (this.draining) throw new WorkerDrainingError(this.id);
      handle = agent.run({ sessionId: run.session_id, runId: run.id });
    } catch (error) {
      await release();
      throw error;
    }
    // The run's MCP connections end with the run, however it ends (finished, handed over, owned elsewhere).
    void handle.result().then(release, release);
    // A drain hands every run over with `detach`: an agent run, or a workflow run together with
    // the inner runs of its agent nodes in flight (their leases are released with the workflow's,
    // R-6), so another worker continues it at once rather than after the lease.
    this.handles.set(run.id, handle);
    void handle.result().then(
      () => this.handles.delete(run.id),
      () => this.handles.delete(run.id),
    );
    if (this.options.onRunStarted) {
      const report = this.options.onRunStarted;
      // Only the process that acquired the run sees its live events; the first is `run-start` with
      // the epoch it acquired, and the store names that epoch's owner (the truth of who executes
      // it). Matched by epoch, not by the lease still being live when the store is read: on a
      // loaded machine that read can come after a renewal was late, and the owner went unreported.
      void (async () => {
        try {
          const events = handle.events();
          for await (const event of events) {
            if (event.type !== 'run-start' && event.type !== 'workflow-start') return;
            const description = await runClient.describeRun(run.id);
            if (description.owner && description.owner.epoch === event.epoch) report(run.id, description.owner.ownerId);
            return;
          }
        } catch {
          // Owned elsewhere or ended: nothing to report.
        }
      })();
    }
    return handle.result();
  }
}
