import { JournalMovedError, OwnershipLostError, StaleEpochError, StoreFailureError } from '../../core/errors/index.js';
import type { RunResult } from '../../core/run-result.js';
import type { AppendRequest, JournalEntry, NewJournalEntry, RunStore } from '../../store/run-store.js';
import type { RunControl } from './run-control.js';
import { isTransientStoreFailure, storeRetryWait } from './store-retry.js';

/**
 * What one commit writes: entries plus the run-row change they imply. `Entry` is the engine's
 * union of journal records, so a misspelt record type or a wrong field does not compile.
 */
export interface Commit<Entry extends NewJournalEntry = NewJournalEntry> {
  entries: Entry[];
  chargeLoops?: number;
  terminal?: RunResult;
  /** With `terminal`: what the finished run leaves on its row for later runs of its session. */
  digest?: unknown;
  /** With `terminal` and `digest`: the earlier run the digest's session checkpoint covers through (ADR 0012). */
  checkpointThrough?: string;
  /**
   * The owner has already applied these entries to its state with the same reducer (a workflow's
   * last task, written with the run's ending): they are written and reported, not applied again.
   */
  applied?: boolean;
}

/** Options of `DurableRun`. */
export interface DurableRunOptions<State> {
  store: RunStore;
  runId: string;
  epoch: number;
  leaseMs: number;
  lastSequence: number;
  state: State;
  control: RunControl;
  /** The same reducer that rebuilt `state` from the journal: live and recovered state agree. */
  apply: (state: State, entry: JournalEntry) => void;
  /**
   * Called with each entry once it is durable and applied (events, telemetry), the owner's own
   * and those others appended (supplements, stop requests), in journal order.
   */
  onCommitted?: (entry: JournalEntry) => void;
  now?: () => number;
}

/**
 * The durable run both engines share (ARCHITECTURE §2): the only way to change a run's state is
 * to commit journal entries, fenced by this owner's epoch, and then apply them with the same
 * reducer recovery uses. Commits are serialised in this process so that the journal order and
 * the in-memory order are the same. A rejected (stale) commit means another owner took over:
 * the run stops admitting work and writes nothing more.
 */
export class DurableRun<State, Entry extends NewJournalEntry = NewJournalEntry> {
  readonly runId: string;
  readonly epoch: number;
  readonly state: State;
  private readonly options: DurableRunOptions<State>;
  private queue: Promise<unknown> = Promise.resolve();
  private lastSequence: number;
  private renewTimer: NodeJS.Timeout | undefined;
  private leaseExpiresAt: number;
  private lost: OwnershipLostError | undefined;
  private disposed = false;
  /** The store calls in flight under `withinLease`: each one's rejection at the end of the lease. */
  private readonly waiting = new Set<(error: unknown) => void>();
  /** The one timer of `withinLease`, armed at the end of the lease while calls are in flight. */
  private watchdog: NodeJS.Timeout | undefined;

  constructor(options: DurableRunOptions<State>) {
    this.options = options;
    this.runId = options.runId;
    this.epoch = options.epoch;
    this.state = options.state;
    this.lastSequence = options.lastSequence;
    this.leaseExpiresAt = (options.now ?? Date.now)() + options.leaseMs;
  }

  /** The sequence of the last journal entry this owner has applied. */
  get sequence(): number {
    return this.lastSequence;
  }

  /**
   * Commits what `build` returns, computed from the state as it is when this commit's turn comes
   * (so that decisions such as "this is the last result of the batch" see every earlier commit).
   * Returns once the entries are durable and applied.
   */
  commit(build: (state: State) => Commit<Entry> | undefined): Promise<void> {
    const next = this.queue.then(() => this.write(build, false).then(() => undefined));
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Commits what `build` returns only if nobody appended to the run since the last entry this
   * owner applied; answers `false` when someone did (a supplement, a stop request from any
   * machine), after applying those entries, so that the caller decides again on the newer state.
   * Takes the place of `sync()` followed by `commit()` with one store call instead of two: a
   * decision that must see every entry that reached the run (S-1) is made on the journal as it is
   * when the commit lands (ADR 0025).
   */
  commitIfCurrent(build: (state: State) => Commit<Entry> | undefined): Promise<boolean> {
    const next = this.queue.then(() => this.write(build, true));
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Reads and applies the entries that others appended since this owner's last write (user
   * supplements arriving through `appendExternal`, S-1), in journal order. Queued like a commit,
   * so entries are applied in exactly the order recovery would fold them.
   */
  sync(): Promise<void> {
    const next = this.queue.then(() => this.applyExternal(Number.POSITIVE_INFINITY));
    this.queue = next.catch(() => {});
    return next;
  }

  /** Renews the lease in the background every third of its length until `dispose`. */
  startLeaseRenewal(): void {
    const every = Math.max(10, Math.floor(this.options.leaseMs / 3));
    this.renewTimer = setInterval(() => void this.renew(), every);
    this.renewTimer.unref();
  }

  /**
   * Stops renewing and, unless the run ended, releases the lease for another executor. Waits for
   * the commits already queued; any commit asked for later (a call cut by a detach that settles
   * anyway) is refused, so nothing is written once the lease is released.
   */
  async dispose(options: { release: boolean }): Promise<void> {
    clearInterval(this.renewTimer);
    await this.queue;
    this.disposed = true;
    if (this.waiting.size === 0) {
      clearTimeout(this.watchdog);
      this.watchdog = undefined;
    }
    if (options.release && !this.lost) await this.options.store.releaseLease(this.runId, this.epoch).catch(() => {});
  }

  /** Writes one commit; with `ifCurrent`, answers `false` (having applied the newer entries) when the journal moved. */
  private async write(build: (state: State) => Commit<Entry> | undefined, ifCurrent: boolean): Promise<boolean> {
    if (this.lost) throw this.lost;
    if (this.disposed) throw new OwnershipLostError(this.runId);
    const commit = build(this.state);
    if (!commit || commit.entries.length === 0) return true;
    const lastSequence = await this.appendDurably(commit, ifCurrent ? this.lastSequence : undefined);
    if (lastSequence === undefined) {
      await this.applyExternal(Number.POSITIVE_INFINITY);
      return false;
    }
    // Entries written by others between our last write and this one come first, as in the journal.
    const firstOwn = lastSequence - commit.entries.length + 1;
    if (firstOwn - 1 > this.lastSequence) await this.applyExternal(firstOwn - 1);
    const at = (this.options.now ?? Date.now)();
    let sequence = lastSequence - commit.entries.length;
    for (const entry of commit.entries) {
      sequence += 1;
      const stored: JournalEntry = { type: entry.type, data: entry.data, sequence, epoch: this.epoch, at };
      if (entry.taskId !== undefined) stored.taskId = entry.taskId;
      if (!commit.applied) this.options.apply(this.state, stored);
      this.options.onCommitted?.(stored);
    }
    this.lastSequence = lastSequence;
    return true;
  }

  /**
   * Appends one commit and returns its last sequence. A transient store failure (a lost
   * connection, a restarting server, a busy lock) is retried with back-off while the lease lives,
   * and the commit's content is kept: what this process holds (a tool's result) is never thrown
   * away for a blip. A failed call may still have landed (the connection died after the commit),
   * so before writing again the journal is read back: only this owner writes with its epoch, and
   * commits are serialised, so entries of this epoch after our last known sequence are this very
   * commit. The retry is fenced by the same epoch, so it can never land after a takeover. With
   * `ifLastSequence`, answers `undefined` when the journal moved past it and nothing was written.
   */
  private async appendDurably(commit: Commit, ifLastSequence: number | undefined): Promise<number | undefined> {
    // Optional members added after the literal: conditional spreads in it made V8 build every
    // commit's request the slow way (about 1.4 KB per commit).
    const request: AppendRequest = {
      runId: this.runId,
      epoch: this.epoch,
      entries: commit.entries,
      chargeLoops: commit.chargeLoops ?? 0,
    };
    if (commit.terminal) {
      request.terminal = commit.terminal;
      if (commit.digest !== undefined) {
        request.digest = commit.digest;
        if (commit.checkpointThrough !== undefined) request.checkpointThrough = commit.checkpointThrough;
      }
    }
    if (ifLastSequence !== undefined) request.ifLastSequence = ifLastSequence;
    let uncertain = false;
    for (let attempt = 0; ; attempt += 1) {
      try {
        if (uncertain) {
          const landed = await this.withinLease(this.findLanded(commit.entries.length));
          if (landed !== undefined) return landed;
        }
        return (await this.withinLease(this.options.store.append(request))).lastSequence;
      } catch (error) {
        if (StaleEpochError.isInstance(error)) throw this.markLost(error);
        if (JournalMovedError.isInstance(error)) return undefined;
        if (!isTransientStoreFailure(error)) throw error;
        uncertain = true;
        await this.waitBeforeRetry(attempt, error);
      }
    }
  }

  /** The last sequence of this commit if an earlier, failed-looking append of it landed. */
  private async findLanded(count: number): Promise<number | undefined> {
    const after = await this.options.store.readJournal(this.runId, { afterSequence: this.lastSequence });
    const own = after.filter((entry) => entry.epoch === this.epoch);
    if (own.length === 0) return undefined;
    if (own.length !== count) {
      throw new StoreFailureError(
        `Run ${this.runId}: the journal holds ${own.length} entries of epoch ${this.epoch} after sequence ${this.lastSequence}, expected ${count}.`,
      );
    }
    return (own.at(-1) as JournalEntry).sequence;
  }

  /** Waits before retrying a store call, or gives the run up when the lease would end first. */
  private async waitBeforeRetry(attempt: number, cause: unknown): Promise<void> {
    if (this.lost) throw this.lost;
    const wait = storeRetryWait(attempt);
    if ((this.options.now ?? Date.now)() + wait >= this.leaseExpiresAt) throw this.markLost(cause);
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (this.lost) throw this.lost;
  }

  /**
   * Bounds a store call by this owner's lease: a store that does not answer (a frozen
   * database) must not keep the run waiting past the moment another worker may take it over.
   * The call itself may still land later; it is fenced by our epoch, so it is harmless. One
   * watchdog timer per run serves every call in flight (a timer, a race and a `finally` per
   * commit were a measurable share of each turn); it keeps the process alive only while a call
   * waits.
   */
  private withinLease<T>(call: Promise<T>): Promise<T> {
    if (this.lost) {
      call.catch(() => {});
      return Promise.reject(this.lost);
    }
    const remaining = this.leaseExpiresAt - (this.options.now ?? Date.now)();
    if (remaining <= 0) {
      call.catch(() => {});
      return Promise.reject(this.leaseRanOut());
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      if (!this.watchdog) this.watchdog = setTimeout(this.onWatchdog, remaining);
      else if (this.waiting.size === 1) this.watchdog.ref();
      const settled = () => {
        this.waiting.delete(reject);
        if (this.waiting.size === 0) this.watchdog?.unref();
      };
      call.then(
        (value) => {
          settled();
          resolve(value);
        },
        (error: unknown) => {
          settled();
          reject(error);
        },
      );
    });
  }

  /** At the end of the lease as it was when armed: fails the calls still waiting, unless a renewal moved the end. */
  private readonly onWatchdog = (): void => {
    this.watchdog = undefined;
    if (this.waiting.size === 0) return;
    const remaining = this.leaseExpiresAt - (this.options.now ?? Date.now)();
    if (remaining > 0 && !this.lost) {
      this.watchdog = setTimeout(this.onWatchdog, remaining);
      return;
    }
    const error = this.leaseRanOut();
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const reject of waiting) reject(error);
  };

  /** Why a store call is given up at the end of the lease: the loss already known, or this one. */
  private leaseRanOut(): OwnershipLostError {
    return (
      this.lost ?? this.markLost(new StoreFailureError(`The store did not answer before the lease of run ${this.runId} ran out.`))
    );
  }

  private async applyExternal(upTo: number): Promise<void> {
    if (this.lost) throw this.lost;
    let entries: JournalEntry[];
    for (let attempt = 0; ; attempt += 1) {
      try {
        entries = await this.withinLease(this.options.store.readJournal(this.runId, { afterSequence: this.lastSequence }));
        break;
      } catch (error) {
        if (!isTransientStoreFailure(error)) throw error;
        await this.waitBeforeRetry(attempt, error);
      }
    }
    for (const entry of entries) {
      if (entry.sequence > upTo) break;
      this.options.apply(this.state, entry);
      this.options.onCommitted?.(entry);
      this.lastSequence = entry.sequence;
    }
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    const now = (this.options.now ?? Date.now)();
    // A renewal that never answers (a partition) must not keep the run admitting work past its
    // lease: another owner may take the run as soon as the lease has run out.
    if (now >= this.leaseExpiresAt) {
      this.markLost(new StoreFailureError(`The lease of run ${this.runId} ran out before it could be renewed.`));
      return;
    }
    try {
      const renewed = await this.options.store.renewLease(this.runId, this.epoch, this.options.leaseMs);
      // Measured on this process's clock from before the request: the store's clock (the
      // database's, for PostgreSQL) may differ from ours, and an early estimate is the safe one.
      this.leaseExpiresAt = Math.max(this.leaseExpiresAt, now + this.options.leaseMs);
      // Someone else appended (a stop request, a supplement): apply it now rather than at the
      // owner's next commit, so that a stop is honoured within a third of the lease (S-5).
      if (renewed.lastSequence > this.lastSequence) await this.sync().catch(() => {});
    } catch (error) {
      // A stale epoch means a takeover happened. Any other failure is retried on the next tick,
      // but once our lease has run out we stop admitting work (checked above).
      if (StaleEpochError.isInstance(error)) this.markLost(error);
    }
  }

  private markLost(cause: unknown): OwnershipLostError {
    if (!this.lost) {
      this.lost = new OwnershipLostError(this.runId, { cause });
      clearInterval(this.renewTimer);
      this.options.control.loseOwnership(this.lost);
    }
    return this.lost;
  }
}
