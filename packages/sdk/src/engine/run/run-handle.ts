import { createOwnerId } from '../../core/ids.js';
import type { RunStore } from '../../store/run-store.js';
import { EventStream } from './event-stream.js';
import type { RunControl } from './run-control.js';
import { stopRequestEntry } from './run-requests.js';

/**
 * A run executing in this process, as `agent.run()` and `workflow.run()` return it (ADR 0020):
 * one contract for both engines, so a host (a worker) keeps, stops, drains and observes agent and
 * workflow runs alike. `Event` and `Result` are the engine's own types (`AgentRunEvent` and
 * `AgentRunResult`, `WorkflowEvent` and `WorkflowResult`); every event has a `type` and every
 * result a `status`.
 */
export interface RunHandle<
  Event extends { type: string } = { type: string },
  Result extends { status: string } = { status: string },
> {
  /** The run id: keep it to resume the run after a crash (or, for a workflow, an interrupt). */
  readonly runId: string;
  readonly sessionId: string;
  /**
   * The owner id under which this call acquires the run (unique per call): once the run has
   * started here (its first event), the store names this id as its owner until the run ends or
   * is handed over. A host reports who executes what with it, without reading the store.
   */
  readonly ownerId: string;
  /**
   * The run's outcome, once the whole run has settled here (calls in flight included). Rejects
   * with `RunOwnedElsewhereError` when a live owner holds the run, `OwnershipLostError` when this
   * process lost it to a takeover, `RunDetachedError` when `detach()` handed it over,
   * `InvalidRunRequestError` for a request the stored run refuses, or a store error.
   */
  result(): Promise<Result>;
  /**
   * Asks the run to stop (S-5): nothing new starts; calls in flight settle and their results are
   * kept; the run then ends `stopped`/`user-stop`. The request is also written to the journal, so
   * it holds if this process dies first. Resolves once it is durable; never rejects (a run that
   * already ended ignores it; `RunClient.requestStop` reports errors).
   */
  stop(options?: { reason?: string }): Promise<void>;
  /**
   * Hands the run over to another process without ending it (a worker draining for a deploy):
   * nothing new starts; calls in flight may settle and be saved for `settleMs` (default 5 s), then
   * they are cut and the lease is released, so a `run({ sessionId, runId })` anywhere takes the
   * run over at once. Resolves once this process has let the run go (or the run ended first);
   * `result()` then rejects with `RunDetachedError`, or resolves if the run ended within the bound.
   */
  detach(options?: { settleMs?: number }): Promise<void>;
  /** The run's lifecycle events, from its start in this process until it settles (a late reader gets them all). */
  events(): AsyncGenerator<Event, void, undefined>;
}

/** How an engine's execution reports back to its handle. */
export interface RunReporter<Event> {
  /** Publishes an event to the handle's readers and observers. */
  emit(event: Event): void;
  /** Called once the store has answered `acquire`: from then on the run exists (or existed). */
  acquired(): void;
  /** The owner id to acquire the run under (the handle's `ownerId`). */
  readonly ownerId: string;
}

/** What an engine gives the handle it returns. */
export interface ExecutingRunOptions<Event, Result> {
  runId: string;
  sessionId: string;
  control: RunControl;
  store: RunStore;
  /** Observers of every event (telemetry, an event bus); their failures never reach the run (K-10). */
  observers?: ReadonlyArray<(event: Event) => void>;
  /** Runs the engine; starts at once, in the background. */
  execute: (reporter: RunReporter<Event>) => Promise<Result>;
}

/**
 * The one implementation of `RunHandle` that both engines' handles extend: the event stream with
 * replay for late readers, observers, the settled result, the durable stop and the detach. An
 * engine adds only what is its own (an agent run's `supplement`).
 */
export class ExecutingRun<Event extends { type: string }, Result extends { status: string }> implements RunHandle<Event, Result> {
  readonly runId: string;
  readonly sessionId: string;
  readonly ownerId = createOwnerId();
  private readonly control: RunControl;
  private readonly runStore: RunStore;
  private readonly stream = new EventStream<Event>();
  private readonly settled: Promise<Result>;
  private readonly observers: ReadonlyArray<(event: Event) => void>;
  /** Resolves once the store has answered `acquire` (or the execution ended before it). */
  protected readonly acquired: Promise<void>;

  constructor(options: ExecutingRunOptions<Event, Result>) {
    this.runId = options.runId;
    this.sessionId = options.sessionId;
    this.control = options.control;
    this.runStore = options.store;
    this.observers = options.observers ?? [];
    let markAcquired: () => void = () => {};
    this.acquired = new Promise<void>((resolve) => {
      markAcquired = resolve;
    });
    this.settled = Promise.resolve()
      .then(() => options.execute({ emit: (event) => this.emit(event), acquired: markAcquired, ownerId: this.ownerId }))
      .finally(() => {
        markAcquired();
        this.stream.end();
      });
    // The caller may never ask for the result; a failure must not become an unhandled rejection.
    this.settled.catch(() => {});
  }

  result(): Promise<Result> {
    return this.settled;
  }

  async stop(options: { reason?: string } = {}): Promise<void> {
    this.control.stop();
    await this.acquired;
    await this.runStore
      .appendExternal({ runId: this.runId, entries: [stopRequestEntry({ ...options, requestedBy: 'run-handle' })] })
      .catch(() => {});
  }

  async detach(options: { settleMs?: number } = {}): Promise<void> {
    this.control.detach(options.settleMs ?? 5_000);
    await this.settled.catch(() => {});
  }

  events(): AsyncGenerator<Event, void, undefined> {
    return this.stream.read();
  }

  /** The store the run lives in, for what an engine's handle adds (a supplement). */
  protected get store(): RunStore {
    return this.runStore;
  }

  private emit(event: Event): void {
    this.stream.push(event);
    for (const observer of this.observers) {
      try {
        observer(event);
      } catch {
        // An observer's failure is its own (K-10).
      }
    }
  }
}
