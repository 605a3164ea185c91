import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AgentRun, WorkflowRun } from '@agentloom/sdk';
import { WorkerRegistry } from '../adapters/database/repositories/worker-registry.js';
import type { ClaimedJob } from '../adapters/dispatch/index.js';
import { nudgeWebhook } from '../application/webhooks/index.js';
import type { WorkerCapabilities } from '../domain/run-requirements.js';
import { actionAfterFailure } from './job-outcome.js';
import { ReleaseBuildCache } from './release-build-cache.js';
import { type RunStarter, startRun } from './start-run.js';
import { detectWorkerCapabilities } from './worker-capabilities.js';
import type { WorkerContext } from './worker-context.js';

/** Options of a `RunWorker`. */
export interface RunWorkerOptions {
  /** Runs executed at once; defaults to the configured `workerConcurrency`. */
  concurrency?: number;
  /**
   * Wait between claims when no job was ready, in ms: a safety net, as the worker claims when
   * the dispatcher announces a job (issue 34); it still finds jobs whose lease expired (a dead
   * worker's runs), so it bounds how long past the lease a takeover waits. Default 250.
   */
  idlePollMs?: number;
  /** What this worker can execute; default: probed (`detectWorkerCapabilities`). */
  capabilities?: WorkerCapabilities;
  /** Called once the SDK owns a run here, with the SDK's owner id (process logs, crash tests). */
  onRunStarted?: (runId: string, sdkOwnerId: string) => void;
  /** Called once this worker no longer executes a run (ended, handed back or failed), for the embedded supervisor. */
  onRunEnded?: (runId: string) => void;
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
  private readonly handles = new Map<string, AgentRun | WorkflowRun>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  /** A claim is under way; a wake-up meanwhile asks for another right after it (`wokenDuringClaim`). */
  private claiming = false;
  private wokenDuringClaim = false;
  /** The last claim filled every free slot: a run that ends frees one, and the worker claims again at once. */
  private full = false;
  private unwatchJobs: (() => void) | undefined;
  private readonly registry: WorkerRegistry;
  private registered: Promise<void> = Promise.resolve();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private markDrained: () => void = () => {};
  /** Resolves once a drain (asked over HTTP or by `drain()`) has handed every run over and the worker is `gone`. */
  readonly drained = new Promise<void>((resolve) => {
    this.markDrained = resolve;
  });
  /** What starting a run needs of this worker (its release builds, its handles, whether it drains). */
  private readonly starter: RunStarter;

  constructor(
    readonly context: WorkerContext,
    private readonly options: RunWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? context.config.workerConcurrency;
    this.idlePollMs = options.idlePollMs ?? 250;
    this.registry = new WorkerRegistry(context.database, context.now);
    this.capabilities = options.capabilities ?? detectWorkerCapabilities();
    this.starter = {
      context,
      workerId: this.id,
      builds: new ReleaseBuildCache(context, this.capabilities),
      handles: this.handles,
      isDraining: () => this.draining !== undefined,
      onRunStarted: options.onRunStarted,
    };
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
        this.context.logger.warn({ workerId: this.id, err: { message: (error as Error).message } }, 'worker registration failed');
      });
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatMs ?? 5_000);
    this.unwatchJobs = this.context.dispatcher.watchJobs(() => this.wake());
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
      this.context.logger.info({ workerId: this.id, runs: runIds.length }, 'worker draining: handing runs over');
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
    this.unwatchJobs?.();
    this.unwatchJobs = undefined;
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
      this.context.logger.warn({ workerId: this.id, err: { message: (error as Error).message } }, 'worker heartbeat failed');
    }
  }

  /** The run ids executing here now. */
  get activeRuns(): string[] {
    return [...this.executing.keys()];
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delayMs);
  }

  /**
   * A job may be claimable (announced, notified, or a slot freed): claim now, or right after the
   * claim under way; many wake-ups in a burst make one claim at a time, not one each.
   */
  private wake(): void {
    if (this.stopped) return;
    if (this.claiming) this.wokenDuringClaim = true;
    else if (this.executing.size < this.concurrency) this.schedule(0);
  }

  private async poll(): Promise<void> {
    if (this.stopped || this.claiming) return;
    this.claiming = true;
    this.wokenDuringClaim = false;
    let claimed: ClaimedJob[] = [];
    const limit = this.concurrency - this.executing.size;
    try {
      claimed = await this.context.dispatcher.claim(this.id, limit, this.context.config.runLeaseMs, this.capabilities);
    } catch (error) {
      this.context.logger.warn({ workerId: this.id, err: { message: (error as Error).message } }, 'claim failed');
    }
    this.full = limit <= 0 || claimed.length === limit;
    for (const [index, job] of claimed.entries()) {
      // One run started per turn of the event loop: the SQLite stores answer synchronously, so
      // runs started together would otherwise run their first steps in one long chain of
      // microtasks, and requests (SSE, new runs) would wait behind the whole batch (issue 34).
      if (index > 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) {
        // Claimed while the worker stopped or began draining: hand the job straight back rather than leave it to its lease.
        await this.context.dispatcher.release(job, new Date()).catch(() => {});
        continue;
      }
      const execution = this.execute(job).finally(() => {
        this.executing.delete(job.runId);
        this.options.onRunEnded?.(job.runId);
        // Jobs may have waited for this slot.
        if (this.full) this.wake();
      });
      this.executing.set(job.runId, execution);
    }
    this.claiming = false;
    // Another claim at once only if woken meanwhile: a claim that took fewer jobs than it could found the queue empty.
    this.schedule(this.wokenDuringClaim && this.executing.size < this.concurrency ? 0 : this.idlePollMs);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { dispatcher, logger, config } = this.context;
    const renewal = setInterval(
      () => {
        dispatcher.renew(job, config.runLeaseMs).catch(() => {});
      },
      Math.max(100, Math.floor(config.runLeaseMs / 3)),
    );
    try {
      const started = await startRun(this.starter, job);
      if (!started) {
        await dispatcher.complete(job);
        return;
      }
      logger.info({ workerId: this.id, runId: job.runId, status: started.status, attempt: job.attempt }, 'run ended');
      await dispatcher.complete(job);
      if (started.webhook) await nudgeWebhook(this.context, job.runId).catch(() => {});
    } catch (error) {
      const action = actionAfterFailure(error, job, { now: this.context.now(), wallMs: Date.now() }, config.runLeaseMs);
      if (action.log) logger[action.log.level]({ workerId: this.id, runId: job.runId, ...action.log.fields }, action.log.message);
      if (action.kind === 'complete') await dispatcher.complete(job).catch(() => {});
      else await dispatcher.release(job, action.notBefore, action.requirements).catch(() => {});
    } finally {
      clearInterval(renewal);
    }
  }
}
