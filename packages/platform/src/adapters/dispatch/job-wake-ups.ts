import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import pg from 'pg';

/** How long a lost listening connection waits before it listens again. */
const RELISTEN_MS = 1_000;

/**
 * The wake-ups of this process's workers (issue 34): a signal, without data, that jobs may have
 * become claimable (a run was enqueued or handed back). Workers claim when woken instead of only
 * on their idle poll, which stays as a slow safety net. A signal may be spurious or repeated; a
 * worker coalesces them into one claim at a time.
 */
export class JobWakeUps {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` on every wake-up until the answered function is called. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Wakes every listener of this process. */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
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
    client.on('notification', () => this.wakeUps.notify());
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
  /** `select pg_notify(channel, '')`, for an enqueue's transaction; undefined without PostgreSQL. */
  readonly notifyQuery: CompiledQuery | undefined;

  constructor(postgres?: JobChannelOptions) {
    this.listener = postgres
      ? new PostgresJobListener(postgres.connectionString, postgres.channel, this.wakeUps, postgres.onError)
      : undefined;
    this.notifyQuery = postgres ? CompiledQuery.raw(`select pg_notify($1, '')`, [postgres.channel]) : undefined;
  }

  announce(): void {
    this.wakeUps.notify();
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
