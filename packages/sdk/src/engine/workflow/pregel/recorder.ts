import type { JournalEntry } from '../../../store/run-store.js';
import type { Commit, DurableRun } from '../../run/durable-run.js';
import type { Durability, WorkflowJournalRecord } from './workflow-journal.js';
import type { WorkflowRunState } from './workflow-state.js';

/** The durable run of a workflow: its commits are workflow journal records. */
export type WorkflowDurableRun = DurableRun<WorkflowRunState, WorkflowJournalRecord>;

/**
 * How the checkpointed loop saves what tasks produce, by durability mode (N-10):
 * - `sync`: each record is durable before its task counts as finished and the run moves on (the
 *   state changes only by applying the committed entries);
 * - `async`: each record is applied at once and committed in the background, in order (a crash
 *   loses at most the tail not yet written);
 * - `exit`: records are applied at once and kept in memory, then written in one commit when the
 *   run ends, pauses or fails (a crash loses the run's progress; inner agent runs, which save
 *   themselves, are still reattached).
 * In every mode each finished task is recorded the moment it finishes, and live state changes
 * only through `applyWorkflowEntry`, the reducer that recovery folds with.
 */
export interface Recorder {
  record(entries: WorkflowJournalRecord[], chargeLoops?: number): Promise<void>;
  /**
   * Records `entries` and waits until they are durable, in every mode (a task's call notes, which
   * must be in the journal before the task's external effect, X-7); in `exit` mode this writes the
   * records kept so far with them.
   */
  recordDurably(entries: WorkflowJournalRecord[]): Promise<void>;
  /** Throws if a background commit failed (async mode). */
  throwIfFailed(): void;
  /** Writes what is pending plus `final` (the run's end or pause) and waits until it is durable. */
  flush(final?: Commit<WorkflowJournalRecord>): Promise<void>;
  /**
   * Records the outcome of a task after which the run is expected to end (its superstep's only
   * task, planning nothing more). In `sync` mode the entries are applied at once and written with
   * the run's ending by the next `flush`, in one commit (one store write less per run); `written`
   * (the task's events) runs once they are durable. Should the applied state plan more work after
   * all (`ends()` false), they are written before this returns. Other modes record them as usual.
   */
  recordLast(entries: WorkflowJournalRecord[], chargeLoops: number, ends: () => boolean, written: () => void): Promise<void>;
}

/** Creates the recorder of a mode; `applyLive` applies an entry to the live state (async, exit). */
export function createRecorder(
  durability: Durability,
  durable: WorkflowDurableRun,
  applyLive: (entry: JournalEntry) => void,
): Recorder {
  const live = (entries: readonly WorkflowJournalRecord[]) => {
    for (const entry of entries) applyLive({ ...entry, sequence: 0, epoch: durable.epoch, at: Date.now() });
  };
  const recordedLast = (recorder: Omit<Recorder, 'recordLast'>): Recorder => ({
    ...recorder,
    recordLast: async (entries, chargeLoops, _ends, written) => {
      await recorder.record(entries, chargeLoops);
      written();
    },
  });
  if (durability === 'exit') return recordedLast(exitRecorder(durable, live));
  const group = new GroupCommit(durable);
  if (durability === 'sync') return syncRecorder(durable, group, live);
  let failed: { error: unknown } | undefined;
  return recordedLast({
    record: (entries, chargeLoops = 0) => {
      live(entries);
      group.add(entries, chargeLoops).catch((error: unknown) => {
        failed ??= { error };
      });
      return Promise.resolve();
    },
    recordDurably: async (entries) => {
      live(entries);
      await group.add(entries, 0);
    },
    throwIfFailed: () => {
      if (failed) throw failed.error;
    },
    flush: async (final) => {
      if (final) live(final.entries);
      await group.idle();
      if (failed) throw failed.error;
      await durable.commit(() => final);
    },
  });
}

/**
 * The `sync` recorder: every record durable before its task counts as finished. A run's last
 * task (`recordLast`) is applied at once and held: the run's ending follows with no other work in
 * between, and both are written by `flush` in one commit — atomically, so a crash leaves either
 * both (the run ended) or neither (the task runs again, as when a crash comes before its record).
 * Its events wait for that commit.
 */
function syncRecorder(
  durable: WorkflowDurableRun,
  group: GroupCommit,
  live: (entries: readonly WorkflowJournalRecord[]) => void,
): Recorder {
  let held: { entries: WorkflowJournalRecord[]; chargeLoops: number; written: () => void } | undefined;
  /** Writes what is held (already applied) with `final`, if any, in one commit. */
  const writeHeld = async (final?: Commit<WorkflowJournalRecord>) => {
    const last = held as NonNullable<typeof held>;
    held = undefined;
    await group.idle();
    if (final) live(final.entries);
    await durable.commit(() => ({
      entries: [...last.entries, ...(final?.entries ?? [])],
      chargeLoops: last.chargeLoops + (final?.chargeLoops ?? 0),
      ...(final?.terminal ? { terminal: final.terminal } : {}),
      applied: true,
    }));
    last.written();
  };
  return {
    record: (entries, chargeLoops = 0) =>
      held ? writeHeld().then(() => group.add(entries, chargeLoops)) : group.add(entries, chargeLoops),
    recordDurably: (entries) => (held ? writeHeld().then(() => group.add(entries, 0)) : group.add(entries, 0)),
    throwIfFailed: () => {},
    flush: async (final) => {
      if (held) return writeHeld(final);
      await group.idle();
      await durable.commit(() => final);
    },
    recordLast: async (entries, chargeLoops, ends, written) => {
      if (held) await writeHeld();
      live(entries);
      held = { entries, chargeLoops, written };
      if (!ends()) await writeHeld();
    },
  };
}

function exitRecorder(
  durable: WorkflowDurableRun,
  live: (entries: readonly WorkflowJournalRecord[]) => void,
): Omit<Recorder, 'recordLast'> {
  const buffered: WorkflowJournalRecord[] = [];
  let charged = 0;
  return {
    record: (entries, chargeLoops = 0) => {
      live(entries);
      buffered.push(...entries);
      charged += chargeLoops;
      return Promise.resolve();
    },
    recordDurably: async (entries) => {
      live(entries);
      const all = [...buffered.splice(0), ...entries];
      const chargeLoops = charged;
      charged = 0;
      await durable.commit(() => ({ entries: all, chargeLoops }));
    },
    throwIfFailed: () => {},
    flush: async (final) => {
      if (final) live(final.entries);
      const entries = [...buffered.splice(0), ...(final?.entries ?? [])];
      const chargeLoops = charged + (final?.chargeLoops ?? 0);
      charged = 0;
      await durable.commit(() => ({ entries, chargeLoops, ...(final?.terminal ? { terminal: final.terminal } : {}) }));
    },
  };
}

interface Pending {
  entries: readonly WorkflowJournalRecord[];
  chargeLoops: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: a record is written at once when the store is free; records that arrive while a
 * commit is in flight (parallel tasks finishing together) are written together by the next
 * commit. Each record keeps its entries in one commit, and its promise settles only when they
 * are durable, so a task still counts as finished only once saved — with one store round
 * trip for many parallel tasks instead of one each.
 */
class GroupCommit {
  private readonly durable: WorkflowDurableRun;
  private pending: Pending[] = [];
  private running: Promise<void> | undefined;

  constructor(durable: WorkflowDurableRun) {
    this.durable = durable;
  }

  add(entries: readonly WorkflowJournalRecord[], chargeLoops: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ entries, chargeLoops, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Resolves once every record added so far has been written (or has failed). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        // One record (a sequential run's every task) is written as it is, without merging.
        const only = batch.length === 1 ? (batch[0] as Pending) : undefined;
        await this.durable.commit(() =>
          only
            ? { entries: only.entries as WorkflowJournalRecord[], chargeLoops: only.chargeLoops }
            : {
                entries: batch.flatMap((item) => item.entries),
                chargeLoops: batch.reduce((total, item) => total + item.chargeLoops, 0),
              },
        );
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.running = undefined;
  }
}
