import type Database from 'better-sqlite3';
import { type RunChangeListener, RunChangeNotifier } from '../run-change-notifier.js';
import type { FileIdentity } from './file-identity.js';

/**
 * How often a store with waiting followers checks whether another process wrote to its file: a
 * follower of a run that another process writes sees its events within this (ADR 0040, revised:
 * 20 ms made a lone chat run's events arrive 25 ms after its start, 5 ms makes it 10.6 ms).
 */
export const FOREIGN_WRITE_CHECK_MS = 5;

/**
 * Wake-ups relayed between two processes that use the same SQLite file (`SqliteRunStore.relay`):
 * the process that writes reports each commit, and the one whose followers wait wakes them at
 * once instead of at its next check of the file. The embedded platform's worker child relays its
 * writes to the API process this way (ADR 0048). The periodic check stays as the safety net for
 * a report that never comes (a killed writer) and for writers that do not relay.
 */
export interface SqliteWriteRelay {
  /**
   * Calls `listener` after each write through this store commits, with the run and its journal's
   * newest sequence when the write knows it; answers the unsubscribe. Writes that other processes
   * made, or reported, are not passed on.
   */
  onWrite(listener: (runId: string, through?: number) => void): () => void;
  /** Wakes this process's followers of `runId` for a write another process made to the file and reported. */
  report(runId: string, through?: number): void;
  /**
   * How often, in milliseconds, the file is checked for other processes' writes while a follower
   * waits (default `FOREIGN_WRITE_CHECK_MS`): longer once the writers report their writes.
   */
  checkEvery(milliseconds: number): void;
}

/** One notifier per database file in this process, so that every store open on it wakes the same followers. */
const notifiers = new Map<string, RunChangeNotifier>();

/**
 * The wake-ups of one `SqliteRunStore` (ADR 0025). Writes through any store of this process on
 * the same file wake its followers at once; writes by other processes are noticed by SQLite's
 * `PRAGMA data_version` (a counter in shared memory: no table is read, no lock taken), checked every
 * `FOREIGN_WRITE_CHECK_MS` by one timer per store and only while a follower of this store waits.
 * When the file changed, one statement reads the newest journal sequence of every watched run and
 * only the runs whose sequence moved are woken (issue 34: waking every follower at each change
 * made each of them read its journal and its run for nothing, 50 followers × 2 statements a
 * tick while the embedded worker child wrote). A run first watched since the last check is
 * woken with its newest sequence at the first check that reads it: its follower's own first read
 * (after the watch) makes that signal spent unless a write came after it.
 */
export class SqliteChanges implements SqliteWriteRelay {
  private readonly notifier: RunChangeNotifier;
  /** Who is told of each write through this store (`onWrite`). */
  private readonly writeListeners = new Set<(runId: string, through?: number) => void>();
  private checkMs = FOREIGN_WRITE_CHECK_MS;
  private readonly dataVersion: Database.Statement<[], number>;
  private readonly newestSequences: Database.Statement<[string], { run_id: string; newest: number | null }>;
  /** The newest journal sequence of each watched run at the last change (null: no journal). */
  private sequences = new Map<string, number | null>();
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
    this.newestSequences = database.prepare(
      `SELECT watched.value AS run_id, (SELECT entry.sequence FROM agentloom_journal AS entry
         WHERE entry.run_id = watched.value ORDER BY entry.sequence DESC LIMIT 1) AS newest
       FROM json_each(?) AS watched`,
    );
  }

  /** Wakes the followers of `runId` in this process (after a write through this store committed, its journal now `through`). */
  notify(runId: string, through?: number): void {
    this.notifier.notify(runId, through);
    for (const listener of this.writeListeners) listener(runId, through);
  }

  onWrite(listener: (runId: string, through?: number) => void): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  report(runId: string, through?: number): void {
    // Where the run now stands, so that the next check of the file does not wake its followers again.
    if (through !== undefined && this.sequences.has(runId) && (this.sequences.get(runId) ?? 0) < through)
      this.sequences.set(runId, through);
    this.notifier.notify(runId, through);
  }

  checkEvery(milliseconds: number): void {
    if (!(Number.isFinite(milliseconds) && milliseconds >= 1)) throw new RangeError('checkEvery takes at least 1 ms');
    this.checkMs = milliseconds;
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.checkForeignWrites(), milliseconds);
    this.timer.unref();
  }

  watch(runId: string, listener: RunChangeListener): () => void {
    const stop = this.notifier.watch(runId, listener);
    this.watching += 1;
    if (!this.timer) {
      this.lastVersion = this.dataVersion.get();
      this.timer = setInterval(() => this.checkForeignWrites(), this.checkMs);
      this.timer.unref();
    }
    // Where the run stands is read at the next check that finds the file changed, which then
    // wakes its follower with the newest sequence: a follower that already read that far (its
    // first read comes after this watch) takes no further read (`WakeUp`), so no statement is
    // spent here (issue 34: it was one per follower).
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
    this.sequences.clear();
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
    let rows: { run_id: string; newest: number | null }[];
    try {
      rows = this.newestSequences.all(JSON.stringify(this.notifier.watchedRuns()));
    } catch {
      this.notifier.notifyAll();
      return;
    }
    const previous = this.sequences;
    this.sequences = new Map();
    for (const { run_id: runId, newest } of rows) {
      this.sequences.set(runId, newest);
      if (previous.get(runId) !== newest) this.notifier.notify(runId, newest ?? undefined);
    }
  }
}
