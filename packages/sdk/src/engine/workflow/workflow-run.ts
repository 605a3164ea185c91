import { EventStream } from '../run/event-stream.js';
import type { RunControl } from '../run/run-control.js';
import type { WorkflowEvent, WorkflowResult } from './workflow-events.js';

/**
 * A workflow run in progress, returned by `workflow.run()`: its events as they happen (a late
 * reader gets every event since the run began in this process), its result, stop and hand-over.
 */
export class WorkflowRun<State = Record<string, unknown>> {
  /** The run id: keep it to resume the run after a crash or an interrupt. */
  readonly runId: string;
  readonly sessionId: string;
  private readonly control: RunControl;
  private readonly stream = new EventStream<WorkflowEvent>();
  private readonly settled: Promise<WorkflowResult<State>>;

  /** @internal Created by `Workflow.run`. */
  constructor(
    runId: string,
    sessionId: string,
    control: RunControl,
    execute: (emit: (event: WorkflowEvent) => void) => Promise<WorkflowResult>,
    observers: ReadonlyArray<(event: WorkflowEvent) => void> = [],
  ) {
    this.runId = runId;
    this.sessionId = sessionId;
    this.control = control;
    this.settled = Promise.resolve()
      .then(
        () =>
          execute((event) => {
            this.stream.push(event);
            for (const observer of observers) {
              try {
                observer(event);
              } catch {
                // An observer's failure is its own (K-10).
              }
            }
          }) as Promise<WorkflowResult<State>>,
      )
      .finally(() => this.stream.end());
    this.settled.catch(() => {});
  }

  /**
   * The run's outcome (`interrupted` when it waits for a resume). Rejects with
   * `RunOwnedElsewhereError` when a live owner holds the run, `OwnershipLostError` when this
   * process lost it to a takeover, `RunDetachedError` when `detach()` handed it over,
   * `InvalidRunRequestError` for a request the stored run refuses, or a store error.
   */
  result(): Promise<WorkflowResult<State>> {
    return this.settled;
  }

  /**
   * Stops the whole run (W-5, S-5): no new task starts; tasks in flight settle and their results
   * are kept; inner agent runs are stopped too; the run ends `stopped`.
   */
  stop(): void {
    this.control.stop();
  }

  /**
   * Hands the run over to another process without ending it, e.g. when a worker drains for a
   * deploy, like an agent run's `detach`. No new task, attempt or retry starts from now
   * on; tasks in flight may settle and be saved for `settleMs` (default 5 s), then they are cut.
   * Inner agent runs in flight are detached within the same bound, so an agent that finished is
   * never run again and an unfinished one continues its own inner run under the next owner. The
   * workflow's lease (and each inner run's) is then released, so `workflow.run({ sessionId, runId })`
   * in any process takes the run over at once, not after the lease.
   *
   * Resolves once this process has let the run go (or the run ended first). `result()` then
   * rejects with `RunDetachedError`, or resolves with the result if the run ended within the bound.
   */
  async detach(options: { settleMs?: number } = {}): Promise<void> {
    this.control.detach(options.settleMs ?? 5_000);
    await this.settled.catch(() => {});
  }

  /** The run's lifecycle events, from its start in this process until it settles. */
  events(): AsyncGenerator<WorkflowEvent, void, undefined> {
    return this.stream.read();
  }
}
