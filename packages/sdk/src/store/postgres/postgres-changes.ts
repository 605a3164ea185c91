import type pg from 'pg';
import { type RunChangeListener, RunChangeNotifier } from '../run-change-notifier.js';

/** How long a lost listening connection waits before it listens again, while followers wait. */
const RELISTEN_MS = 1_000;
/**
 * How long the listening connection stays after its last follower left, for the next one: a lone
 * user's runs follow one another, and each follower that found nobody listening made a connection
 * and a `LISTEN` of its own, which the next one made again (issue 34). As long as the pool keeps
 * an idle connection (`pg`'s 10 s), so that a process that forgot to close its store does not
 * stay up longer for it.
 */
export const LISTEN_LINGER_MS = 10_000;

/**
 * The wake-ups of one `PostgresRunStore` (ADR 0025): one connection of the store's pool listens
 * on the schema's channel while at least one follower waits, and fans each notification out to
 * that run's followers. Every append and external append sends `<last sequence>:<run id>`, a
 * deletion `:<run id>` (`parseChange`). A lost
 * connection wakes every follower (each reads once) and listens again; the followers' safety net
 * covers the gap.
 */
export class PostgresChanges {
  private readonly notifier = new RunChangeNotifier();
  private listener: pg.PoolClient | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** The end of the listening connection once nobody waits (`LISTEN_LINGER_MS`). */
  private linger: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    /** The channel name, already safe to write as an identifier (lower-case letters, digits, `_`). */
    private readonly channel: string,
  ) {}

  watch(runId: string, listener: RunChangeListener): () => void {
    const stop = this.notifier.watch(runId, listener);
    clearTimeout(this.linger);
    this.linger = undefined;
    this.listen();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stop();
      if (this.notifier.size === 0) this.lingerThenUnlisten();
    };
  }

  /** Stops listening for good (the store closes). */
  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => {});
    this.unlisten();
  }

  private listen(): void {
    if (this.closed || this.listener || this.connecting) return;
    this.connecting = (async () => {
      const client = await this.pool.connect();
      client.on('notification', (message) => {
        if (!message.payload) return;
        const { runId, through } = parseChange(message.payload);
        this.notifier.notify(runId, through);
      });
      client.on('error', () => this.lose(client));
      client.on('end', () => this.lose(client));
      await client.query(`LISTEN ${this.channel}`);
      this.listener = client;
      // A write that landed while the connection was being made was not heard: read once.
      this.notifier.notifyAll();
      if (this.closed) this.unlisten();
      else if (this.notifier.size === 0) this.lingerThenUnlisten();
    })()
      .catch(() => this.scheduleRetry())
      .finally(() => {
        this.connecting = undefined;
      });
  }

  private lose(client: pg.PoolClient): void {
    if (this.listener !== client) return;
    this.listener = undefined;
    client.release(true);
    this.notifier.notifyAll();
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry || this.notifier.size === 0) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.notifier.size > 0) this.listen();
    }, RELISTEN_MS);
    this.retry.unref();
  }

  /** Ends the listening connection `LISTEN_LINGER_MS` from now, unless a follower comes first. */
  private lingerThenUnlisten(): void {
    clearTimeout(this.linger);
    this.linger = setTimeout(() => {
      this.linger = undefined;
      if (this.notifier.size === 0) this.unlisten();
    }, LISTEN_LINGER_MS);
    this.linger.unref();
  }

  private unlisten(): void {
    clearTimeout(this.linger);
    this.linger = undefined;
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.listener;
    if (!client) return;
    this.listener = undefined;
    // Destroyed, not returned: a pooled connection must not keep listening for another user.
    client.release(true);
  }
}

/**
 * A notification's run and the journal's last sequence after the write: `<sequence>:<run id>`,
 * or `:<run id>` when the write has none (a deletion). A payload without that prefix is a run id
 * alone, as SDKs before this format sent it (issue 34), so that a follower of a newer process
 * still wakes for an older writer's appends; an older follower does not recognise the new format
 * and reads at its safety net until it is upgraded.
 */
export function parseChange(payload: string): { runId: string; through?: number } {
  const separator = payload.indexOf(':');
  const head = payload.slice(0, Math.max(separator, 0));
  if (separator < 0 || !/^\d*$/.test(head)) return { runId: payload };
  const runId = payload.slice(separator + 1);
  return head === '' ? { runId } : { runId, through: Number(head) };
}
