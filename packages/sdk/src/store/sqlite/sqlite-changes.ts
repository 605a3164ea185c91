import type Database from 'better-sqlite3';
import { RunChangeNotifier } from '../run-change-notifier.js';
import type { FileIdentity } from './file-identity.js';

/** How often a store with waiting followers checks whether another process wrote to its file. */
export const FOREIGN_WRITE_CHECK_MS = 50;

/** One notifier per database file in this process, so that every store open on it wakes the same followers. */
const notifiers = new Map<string, RunChangeNotifier>();

/**
 * The wake-ups of one `SqliteRunStore` (ADR 0024). Writes through any store of this process on
 * the same file wake its followers at once; writes by other processes are noticed by SQLite's
 * `PRAGMA data_version` (a counter in shared memory: no table is read, no lock taken), checked every
 * `FOREIGN_WRITE_CHECK_MS` by one timer per store and only while a follower of this store waits.
 */
export class SqliteChanges {
  private readonly notifier: RunChangeNotifier;
  private readonly dataVersion: Database.Statement<[], number>;
  private lastVersion: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private watching = 0;

  constructor(database: Database.Database, identity: FileIdentity | undefined) {
    const key = identity ? `${identity.dev}:${identity.ino}` : undefined;
    let notifier = key ? notifiers.get(key) : undefined;
    if (!notifier) {
      notifier = new RunChangeNotifier();
      if (key) notifiers.set(key, notifier);
    }
    this.notifier = notifier;
    this.dataVersion = database.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Wakes the followers of `runId` in this process (after a write through this store committed). */
  notify(runId: string): void {
    this.notifier.notify(runId);
  }

  watch(runId: string, listener: () => void): () => void {
    const stop = this.notifier.watch(runId, listener);
    this.watching += 1;
    if (!this.timer) {
      this.lastVersion = this.dataVersion.get();
      this.timer = setInterval(() => this.checkForeignWrites(), FOREIGN_WRITE_CHECK_MS);
      this.timer.unref();
    }
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stop();
      this.watching -= 1;
      if (this.watching === 0) this.close();
    };
  }

  /** Stops the check for other processes' writes (the store closes, or nobody waits). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private checkForeignWrites(): void {
    let version: number;
    try {
      version = this.dataVersion.get() as number;
    } catch {
      // A closed or failing database: the followers' own reads will report it.
      this.close();
      this.notifier.notifyAll();
      return;
    }
    if (version === this.lastVersion) return;
    this.lastVersion = version;
    this.notifier.notifyAll();
  }
}
