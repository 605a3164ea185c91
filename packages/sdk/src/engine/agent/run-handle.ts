import type { RunResult } from '../../core/run-result.js';
import type { RunStore } from '../../store/run-store.js';
import { EventStream } from '../run/event-stream.js';
import type { RunControl } from '../run/run-control.js';
import { stopRequestEntry } from '../run/run-requests.js';
import type { RunHooks } from './execute-run.js';
import type { RunEvent } from './run-events.js';
import { type SupplementReceipt, submitSupplement } from './supplements.js';

/** What `Agent.run` gives a `Run` handle. */
export interface RunHandleOptions {
  runId: string;
  sessionId: string;
  control: RunControl;
  store: RunStore;
  /** Observers of every event (telemetry, an event bus); their failures never reach the run. */
  observers?: ReadonlyArray<(event: RunEvent) => void>;
  execute: (hooks: RunHooks) => Promise<RunResult>;
}

/**
 * A run in progress, returned by `agent.run()`. Its events can be read as they happen (every
 * event since the run began in this process is replayed to a late reader), its result awaited,
 * supplements sent, and the run stopped or handed over to another process.
 */
export class Run {
  /** The run id: keep it to resume the run after a crash. */
  readonly runId: string;
  readonly sessionId: string;
  private readonly control: RunControl;
  private readonly store: RunStore;
  private readonly stream = new EventStream<RunEvent>();
  private readonly settled: Promise<RunResult>;
  private readonly acquired: Promise<void>;
  private readonly observers: ReadonlyArray<(event: RunEvent) => void>;

  /** @internal Created by `Agent.run`. */
  constructor(options: RunHandleOptions) {
    this.runId = options.runId;
    this.sessionId = options.sessionId;
    this.control = options.control;
    this.store = options.store;
    this.observers = options.observers ?? [];
    let markAcquired: () => void = () => {};
    this.acquired = new Promise<void>((resolve) => {
      markAcquired = resolve;
    });
    this.settled = Promise.resolve()
      .then(() => options.execute({ emit: (event) => this.emit(event), acquired: markAcquired }))
      .finally(() => {
        markAcquired();
        this.stream.end();
      });
    // The caller may never ask for the result; a failure must not become an unhandled rejection.
    this.settled.catch(() => {});
  }

  /**
   * The run's outcome, once the whole run has settled (calls in flight included). Rejects with
   * `RunOwnedElsewhereError` when a live owner holds the run, `OwnershipLostError` when this
   * process lost it to a takeover, `RunDetachedError` when `detach()` handed it over, or a store error.
   */
  result(): Promise<RunResult> {
    return this.settled;
  }

  /**
   * Asks the run to stop (S-1, S-5): no new model call, retry, executor or queued action starts;
   * calls in flight settle and their results are kept; the run then ends `stopped`/`user-stop`.
   * The request is also written to the journal, so it holds if this process dies before the run
   * settles (the next owner honours it) and reaches the owner when another process runs it.
   * Resolves once the request is durable; never rejects (a run that already ended ignores it,
   * and a failed write leaves the stop in force here — `RunClient.requestStop` reports errors).
   */
  async stop(options: { reason?: string } = {}): Promise<void> {
    this.control.stop();
    await this.acquired;
    await this.store
      .appendExternal({ runId: this.runId, entries: [stopRequestEntry({ ...options, requestedBy: 'run-handle' })] })
      .catch(() => {});
  }

  /**
   * Hands the run over to another process without ending it, e.g. when a worker drains
   * for a deploy. No new loop, model call, attempt, retry or executor starts from now on; model
   * and tool calls in flight may settle and be saved for `settleMs` (default 5 s), then they are
   * cut — a tool call whose outcome was not saved is `unknown` for the next owner, as after a
   * crash. The lease is then released, so `agent.run({ sessionId, runId })` in any process
   * takes the run over at once, not after the lease: it redoes no saved result, adds no input and
   * keeps the budget and deadline.
   *
   * Resolves once this process has let the run go (or the run ended first). `result()` then
   * rejects with `RunDetachedError` (its `runId` and `sessionId` say what to queue again), or
   * resolves with the result if the run finished within the bound.
   */
  async detach(options: { settleMs?: number } = {}): Promise<void> {
    this.control.detach(options.settleMs ?? 5_000);
    await this.settled.catch(() => {});
  }

  /**
   * Adds a user message to this run while it is active (S-1…S-3); the entry role sees it before its
   * next model call. Rejects with `RunNotActiveError` once the run has ended (S-2).
   */
  async supplement(text: string): Promise<SupplementReceipt> {
    await this.acquired;
    return submitSupplement(this.store, { sessionId: this.sessionId, runId: this.runId, text });
  }

  /** The run's lifecycle events, from its start in this process until it settles. */
  events(): AsyncGenerator<RunEvent, void, undefined> {
    return this.stream.read();
  }

  private emit(event: RunEvent): void {
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
