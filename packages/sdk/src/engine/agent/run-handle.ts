import type { RunResult } from '../../core/run-result.js';
import type { RunControl } from '../run/run-control.js';
import type { RunEvent } from './run-events.js';

/**
 * A run in progress, returned by `agent.run()`. Its events can be read as they happen (every
 * event since the run began in this process is replayed to a late reader), its result awaited,
 * and the run stopped.
 */
export class Run {
  /** The run id: keep it to resume the run after a crash. */
  readonly runId: string;
  readonly sessionId: string;
  private readonly control: RunControl;
  private readonly buffered: RunEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private ended = false;
  private readonly settled: Promise<RunResult>;

  /** @internal Created by `Agent.run`. */
  constructor(
    runId: string,
    sessionId: string,
    control: RunControl,
    execute: (emit: (event: RunEvent) => void) => Promise<RunResult>,
  ) {
    this.runId = runId;
    this.sessionId = sessionId;
    this.control = control;
    this.settled = Promise.resolve()
      .then(() => execute((event) => this.emit(event)))
      .finally(() => {
        this.ended = true;
        this.wake();
      });
    // The caller may never ask for the result; a failure must not become an unhandled rejection.
    this.settled.catch(() => {});
  }

  /**
   * The run's outcome. Rejects with `RunOwnedElsewhereError` when a live owner holds the run,
   * `OwnershipLostError` when this process lost it to a takeover, or a store error.
   */
  result(): Promise<RunResult> {
    return this.settled;
  }

  /** Asks the run to stop (S-1): no new work is admitted and the run ends `stopped`/`user-stop`. */
  stop(): void {
    this.control.stop();
  }

  /** The run's lifecycle events, from its start in this process until it settles. */
  async *events(): AsyncGenerator<RunEvent, void, undefined> {
    let index = 0;
    for (;;) {
      while (index < this.buffered.length) {
        yield this.buffered[index] as RunEvent;
        index += 1;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  private emit(event: RunEvent): void {
    this.buffered.push(event);
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }
}
