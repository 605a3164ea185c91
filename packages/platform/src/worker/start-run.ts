import type { AgentRun, WorkflowRun } from '@agentloom/sdk';
import { pinRunRelease, readRunWithAppPinning } from '../adapters/database/repositories/run-repository.js';
import type { ClaimedJob } from '../adapters/dispatch/index.js';
import { defaultMcpConnectAttempts } from '../config/index.js';
import { AppDeletingError, WorkerDrainingError } from './job-outcome.js';
import type { ReleaseBuildCache } from './release-build-cache.js';
import type { WorkerContext } from './worker-context.js';

/** What starting a run needs of its worker. */
export interface RunStarter {
  readonly context: Pick<WorkerContext, 'database' | 'dialect' | 'runClient' | 'config'>;
  readonly workerId: string;
  readonly builds: ReleaseBuildCache;
  /** The SDK handles of the runs executing here, for a hand-over. */
  readonly handles: Map<string, AgentRun | WorkflowRun>;
  isDraining(): boolean;
  onRunStarted?: ((runId: string, sdkOwnerId: string) => void) | undefined;
}

/**
 * Builds the run's agent and starts (or resumes) it: `agent.run({ sessionId, runId })`, where the
 * SDK decides whether that creates, takes over or answers a finished run (P-11.4). Answers the
 * run's status when it ends and whether it owes a completion webhook, or undefined when the run
 * (or its app) no longer exists or has nothing to do.
 */
export async function startRun(starter: RunStarter, job: ClaimedJob): Promise<{ status: string; webhook: boolean } | undefined> {
  const { database, runClient } = starter.context;
  // On PostgreSQL a first start's release is pinned by the read itself (D-P5).
  const found = await readRunWithAppPinning(database, starter.context.dialect, job.runId);
  if (!found) return undefined;
  const { run, app } = found;
  if (app.state === 'deleting') {
    // NOT-21: no new work for an app being deleted. A run already ended is done; a run its
    // deletion has asked to stop is handed to the SDK only to settle (a taker honours the stop
    // right after acquiring, S1); any other run waits for the deletion to stop it.
    const description = await runClient.describeRun(run.id);
    if (description.status !== 'pending' && description.status !== 'running') return undefined;
    if (!description.stopRequest) throw new AppDeletingError(app.id);
  }
  // A pinned release never changes (P-6.5): the row just read answers it without another statement.
  const releaseId = run.release_id ?? (await pinRunRelease(database, run.id, app.latest_release_id));
  if (!releaseId) throw new Error(`The app ${app.id} has no release to run.`);
  const { agent, release } = await starter.builds.build(releaseId, app, {
    finalMcpAttempt: job.attempt >= (starter.context.config.mcpConnectAttempts ?? defaultMcpConnectAttempts),
    scope: { sessionId: run.session_id, runId: run.id },
  });
  let handle: AgentRun | WorkflowRun;
  try {
    if (starter.isDraining()) throw new WorkerDrainingError(starter.workerId);
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
  starter.handles.set(run.id, handle);
  void handle.result().then(
    () => starter.handles.delete(run.id),
    () => starter.handles.delete(run.id),
  );
  if (starter.onRunStarted) reportOwner(handle, starter.onRunStarted);
  const { status } = await handle.result();
  return { status, webhook: found.webhook };
}

/**
 * Reports the SDK owner of a run this process acquired. Only the process that acquired the run
 * sees its live events, so its first event (`run-start` or `workflow-start`) says that the
 * handle's own owner id now holds the run: no store read (issue 34: one statement per run less).
 */
function reportOwner(handle: AgentRun | WorkflowRun, report: (runId: string, sdkOwnerId: string) => void): void {
  void (async () => {
    try {
      for await (const event of handle.events()) {
        if (event.type === 'run-start' || event.type === 'workflow-start') report(handle.runId, handle.ownerId);
        return;
      }
    } catch {
      // Owned elsewhere or ended: nothing to report.
    }
  })();
}
