import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import pg from 'pg';

/** How long a lost listening connection waits before it listens again. */
const RELISTEN_MS = 1_000;

/**
 * The wake-ups of this process's workers (issue 34): a signal that jobs may have become claimable
 * (a run was enqueued or handed back), naming the queue when the sender knew it. Workers claim
 * when woken instead of only on their idle poll, which stays as a slow safety net. A signal may
 * be spurious or repeated; a worker coalesces them into one claim at a time. Each queue has a
 * version that every signal for it (or for no queue in particular) changes, so that a dispatcher
 * can skip a queue it found empty when nothing was heard of it since.
 */
export class JobWakeUps {
  private readonly listeners = new Set<() => void>();
  /** Signals that named no queue (they concern every queue). */
  private everyQueue = 0;
  private readonly perQueue = new Map<string, number>();

  /** Calls `listener` on every wake-up until the answered function is called. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Wakes every listener of this process; `queue`: the one queue the signal is about, if known. */
  notify(queue?: string): void {
    if (queue) this.perQueue.set(queue, (this.perQueue.get(queue) ?? 0) + 1);
    else this.everyQueue += 1;
    for (const listener of [...this.listeners]) listener();
  }

  /** A number that changes with every signal that may concern `queue`. */
  version(queue: string): number {
    return this.everyQueue + (this.perQueue.get(queue) ?? 0);
  }

  /** How many listeners wait (the PostgreSQL listener connects only while some do). */
  get size(): number {
    return this.listeners.size;
  }
}

/**
 * The PostgreSQL channel of a platform database's job wake-ups: `agentloom_jobs_` and 16 hex
 * digits of the SHA-1 of `key` (the platform's schema), so that platforms sharing a database in
 * different schemas do not wake each other.
 */
export function jobChannelOf(key: string): string {
  return `agentloom_jobs_${createHash('sha1').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * Job wake-ups across processes and machines on PostgreSQL: an enqueue calls `pg_notify(channel)`
 * in its own transaction (so every process hears of the job only once it committed), and each
 * process that has workers keeps ONE connection that `LISTEN`s while at least one of its workers
 * waits, fanning each notification out to its workers through `JobWakeUps`. API-only processes
 * never open it. A lost connection wakes every worker once (a notification may have been missed)
 * and listens again after a second; the workers' idle poll covers the gap.
 */
export class PostgresJobListener {
  private client: pg.Client | undefined;
  private connecting = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly wakeUps: JobWakeUps,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  /** Starts listening if it does not yet (called when a worker starts watching). */
  ensure(): void {
    if (this.closed || this.client || this.connecting) return;
    this.connecting = true;
    const client = new pg.Client({ connectionString: this.connectionString });
    const lost = (error?: Error) => {
      if (error) this.onError(error);
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      this.wakeUps.notify();
      if (this.closed) return;
      clearTimeout(this.retry);
      this.retry = setTimeout(() => {
        if (this.wakeUps.size > 0) this.ensure();
      }, RELISTEN_MS);
      this.retry.unref();
    };
    // The payload names the job's queue (an empty one, from an older sender, means any queue).
    client.on('notification', (message) => this.wakeUps.notify(message.payload || undefined));
    client.on('error', (error) => lost(error));
    void (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN ${this.channel}`);
        this.connecting = false;
        if (this.closed) {
          client.removeAllListeners('notification');
          await client.end();
          return;
        }
        this.client = client;
        // A job enqueued while the connection was being made was not heard: one wake-up covers it.
        this.wakeUps.notify();
      } catch (error) {
        this.connecting = false;
        lost(error as Error);
      }
    })();
  }

  /** Whether the connection listens now (so that every committed enqueue's signal reaches this process). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('notification');
      await client.end().catch(() => {});
    }
  }
}

/** Where a dispatcher on PostgreSQL notifies and listens. */
export interface JobChannelOptions {
  connectionString: string;
  /** `jobChannelOf(<platform schema>)`. */
  channel: string;
  onError?: (error: Error) => void;
}

/**
 * What both dispatchers share for wake-ups: the process's `JobWakeUps`, and on PostgreSQL the
 * statement an enqueue's transaction runs to notify other processes and the one listener.
 */
export class JobSignals {
  private readonly wakeUps = new JobWakeUps();
  private readonly listener: PostgresJobListener | undefined;
  private readonly channel: string | undefined;

  constructor(postgres?: JobChannelOptions) {
    this.listener = postgres
      ? new PostgresJobListener(postgres.connectionString, postgres.channel, this.wakeUps, postgres.onError)
      : undefined;
    this.channel = postgres?.channel;
  }

  /**
   * `select pg_notify(channel, queue)`, for an enqueue's transaction: a signal that names the job's
   * queue, or any queue when `queue` is absent (an empty payload); undefined without PostgreSQL.
   */
  notifyQuery(queue?: string): CompiledQuery | undefined {
    return this.channel ? CompiledQuery.raw(`select pg_notify($1, $2)`, [this.channel, queue ?? '']) : undefined;
  }

  /** `notifyQuery`'s arguments (channel, payload), for a statement that calls `pg_notify` itself; undefined without PostgreSQL. */
  notifyArguments(queue?: string): readonly [string, string] | undefined {
    return this.channel ? [this.channel, queue ?? ''] : undefined;
  }

  /** Wakes this process's workers at once (`queue`: the one queue concerned, if known). */
  announce(queue?: string): void {
    this.wakeUps.notify(queue);
  }

  /**
   * Whether every enqueue's signal, from any process, reaches this process now: its PostgreSQL
   * listener is connected. Until then (and without PostgreSQL) a queue's version says nothing.
   */
  get hearsEverything(): boolean {
    return this.listener?.listening ?? false;
  }

  /** See `JobWakeUps.version`. */
  version(queue: string): number {
    return this.wakeUps.version(queue);
  }

  watch(listener: () => void): () => void {
    const stop = this.wakeUps.watch(listener);
    this.listener?.ensure();
    return stop;
  }

  close(): Promise<void> {
    return this.listener?.close() ?? Promise.resolve();
  }
}

/**
 * How long a queue found empty is trusted to stay empty when no signal names it: a claim looks
 * again after this even without one (a job handed back for later, `startAfter`, is due unheard).
 * The workers' idle poll has the same period, so an idle worker still looks in every queue.
 */
const defaultEmptyTrustMs = 250;

/**
 * The queues a dispatcher's fetches found empty (issue 34, ADR 0036's revision). Under load every
 * enqueue wakes every worker process, and each claim fetched every queue it may take from, also
 * the one with nothing: four fetches in five of the PostgreSQL bench found no job. A claim now
 * skips a queue while a fetch found it empty less than `trustMs` ago and no signal that may
 * concern it arrived since (the version read before that fetch: a job signalled later committed
 * after the fetch's snapshot), and only while this process hears every enqueue (its listener is
 * connected): otherwise it fetches every queue, as before.
 */
export class EmptyQueues {
  private readonly found = new Map<string, { version: number; at: number }>();

  constructor(
    private readonly signals: JobSignals,
    private readonly trustMs = defaultEmptyTrustMs,
  ) {}

  /** Whether a claim must fetch from `queue`. */
  mayHoldJobs(queue: string): boolean {
    const empty = this.found.get(queue);
    if (!empty || !this.signals.hearsEverything) return true;
    return empty.version !== this.signals.version(queue) || Date.now() - empty.at >= this.trustMs;
  }

  /** Call before fetching from `queue`; then `found(empty)` with whether the fetch got fewer jobs than it asked for. */
  fetching(queue: string): { found(empty: boolean): void } {
    const seen = { version: this.signals.version(queue), at: Date.now() };
    return {
      found: (empty) => {
        if (empty) this.found.set(queue, seen);
        else this.found.delete(queue);
      },
    };
  }
}
