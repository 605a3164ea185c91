import { OwnershipLostError, StaleEpochError, StoreFailureError } from '../../core/errors/index.js';
import type { RunResult } from '../../core/run-result.js';
import type { JournalEntry, NewJournalEntry, RunStore } from '../../store/run-store.js';
import type { RunControl } from './run-control.js';

/** What one commit writes: entries plus the run-row change they imply. */
export interface Commit {
  entries: NewJournalEntry[];
  chargeLoops?: number;
  terminal?: RunResult;
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
export class DurableRun<State> {
  readonly runId: string;
  readonly epoch: number;
  readonly state: State;
  private readonly options: DurableRunOptions<State>;
  private queue: Promise<unknown> = Promise.resolve();
  private lastSequence: number;
  private renewTimer: NodeJS.Timeout | undefined;
  private leaseExpiresAt: number;
  private lost: OwnershipLostError | undefined;

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
  commit(build: (state: State) => Commit | undefined): Promise<void> {
    const next = this.queue.then(() => this.write(build));
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

  /** Stops renewing and, unless the run ended, releases the lease for another executor. */
  async dispose(options: { release: boolean }): Promise<void> {
    clearInterval(this.renewTimer);
    await this.queue;
    if (options.release && !this.lost) await this.options.store.releaseLease(this.runId, this.epoch).catch(() => {});
  }

  private async write(build: (state: State) => Commit | undefined): Promise<void> {
    if (this.lost) throw this.lost;
    const commit = build(this.state);
    if (!commit || commit.entries.length === 0) return;
    let lastSequence: number;
    try {
      ({ lastSequence } = await this.options.store.append({
        runId: this.runId,
        epoch: this.epoch,
        entries: commit.entries,
        chargeLoops: commit.chargeLoops ?? 0,
        ...(commit.terminal ? { terminal: commit.terminal } : {}),
      }));
    } catch (error) {
      if (StaleEpochError.isInstance(error)) throw this.markLost(error);
      throw error;
    }
    // Entries written by others between our last write and this one come first, as in the journal.
    const firstOwn = lastSequence - commit.entries.length + 1;
    if (firstOwn - 1 > this.lastSequence) await this.applyExternal(firstOwn - 1);
    const at = (this.options.now ?? Date.now)();
    let sequence = lastSequence - commit.entries.length;
    for (const entry of commit.entries) {
      sequence += 1;
      const stored: JournalEntry = { ...entry, sequence, epoch: this.epoch, at };
      this.options.apply(this.state, stored);
      this.options.onCommitted?.(stored);
    }
    this.lastSequence = lastSequence;
  }

  private async applyExternal(upTo: number): Promise<void> {
    if (this.lost) throw this.lost;
    const entries = await this.options.store.readJournal(this.runId, { afterSequence: this.lastSequence });
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
