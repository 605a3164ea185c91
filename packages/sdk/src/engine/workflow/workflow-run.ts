import { EventStream } from '../run/event-stream.js';
import type { RunControl } from '../run/run-control.js';
import type { WorkflowEvent, WorkflowResult } from './workflow-events.js';

/**
 * A workflow run in progress, returned by `workflow.run()`: its events as they happen (a late
 * reader gets every event since the run began in this process), its result, and stop.
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
   * process lost it to a takeover, `InvalidRunRequestError` for a request the stored run refuses,
   * or a store error.
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

  /** The run's lifecycle events, from its start in this process until it settles. */
  events(): AsyncGenerator<WorkflowEvent, void, undefined> {
    return this.stream.read();
  }
}
