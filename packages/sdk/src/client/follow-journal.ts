import { abortableSleep } from '../core/abortable-sleep.js';
import { RunNotFoundError } from '../core/errors/index.js';
import { isUnfinished } from '../store/acquire-decision.js';
import type { JournalEntry, RunRecord, RunStore } from '../store/run-store.js';
import { type HostedRunEvent, projectorOf } from './run-projection.js';
import { WakeUp } from './wake-up.js';

/** How a follower waits between reads of a journal (`RunClientOptions`). */
export interface FollowWaits {
  pollMs: number;
  maxPollMs: number;
  safetyNetMs: number;
}

/** A watch of a run's writes, started before a read of its journal (`watchBeforeRead`). */
export interface JournalWatch {
  wakeUp: WakeUp;
  /** Ends the watch (once; later calls do nothing). */
  unwatch: () => void;
}

/**
 * Starts watching `runId`'s writes (where the store can), so that entries read after this are a
 * live run's first read: a write that lands after that read signals the wake-up, whether it came
 * before or after the follower waits (issue 34: `openFollow` read a live run's journal twice).
 */
export function watchBeforeRead(store: RunStore, runId: string): JournalWatch | undefined {
  if (!store.watchRun) return undefined;
  const wakeUp = new WakeUp();
  const stop = store.watchRun(runId, (through) => wakeUp.signal(through));
  let stopped = false;
  return {
    wakeUp,
    unwatch: () => {
      if (stopped) return;
      stopped = true;
      stop();
    },
  };
}

/**
 * Follows a run's journal, one array of events per read (`RunClient.followBatches`): woken by the
 * store where it can (`watchRun`, with a read every `safetyNetMs` as a safety net), polled with
 * back-off (`pollMs` … `maxPollMs`) where it cannot; ends after the terminal event, at once for a
 * run that had ended (its journal is final), and when `signal` aborts. `first`: the entries a
 * read of the run brought with it (`readRunAndJournal`), used as the first read when they are
 * final or when `watch` (a live run's, which the follower then owns and ends) was started before
 * that read.
 */
export async function* followJournal(
  store: RunStore,
  run: RunRecord,
  options: FollowWaits & { afterSequence?: number; signal?: AbortSignal; first?: JournalEntry[]; watch?: JournalWatch },
): AsyncGenerator<HostedRunEvent[], void, undefined> {
  const runId = run.runId;
  const projector = projectorOf(run);
  const after = options.afterSequence ?? 0;
  let read = 0;
  let wait = options.pollMs;
  // An ended run's journal is final (one read, no watch: the entries read with the run, if any);
  // otherwise watching starts before the first read, so that a write landing between a read and
  // the wait still wakes this follower (entries read with a live run count only if a watch
  // started before they were read).
  const ended = !isUnfinished(run.status);
  let first = ended || options.watch ? options.first : undefined;
  const watch = ended ? undefined : (options.watch ?? watchBeforeRead(store, runId));
  const wakeUp = watch?.wakeUp;
  const unwatch = watch?.unwatch;
  try {
    for (;;) {
      if (options.signal?.aborted) return;
      const entries: JournalEntry[] = first ?? (await store.readJournal(runId, { afterSequence: read }));
      first = undefined;
      const batch: HostedRunEvent[] = [];
      let finished = false;
      for (const entry of entries) {
        read = entry.sequence;
        for (const event of projector.projectAll(entry)) {
          if (event.sequence <= after) continue;
          batch.push(event);
          finished = event.type === 'run-finish' || event.type === 'workflow-finish';
          if (finished) break;
        }
        if (finished) break;
      }
      if (batch.length > 0) yield batch;
      if (finished || ended) return;
      if (entries.length > 0) {
        wait = options.pollMs;
        // Watched: this read saw every write committed before it, and a later write signals
        // the wake-up (it latches), so wait for that rather than read again to find nothing
        // (issue 34: two reads and a run read per write were most of a follower's statements).
        if (wakeUp && !(await wakeUp.wait(options.safetyNetMs, options.signal, read))) return;
        continue;
      }
      const current = await store.getRun(runId);
      if (!current || current.status === 'deleted') throw new RunNotFoundError(runId, { deleted: current?.status === 'deleted' });
      if (wakeUp) {
        if (!(await wakeUp.wait(options.safetyNetMs, options.signal, read))) return;
        continue;
      }
      try {
        await abortableSleep(wait, options.signal);
      } catch {
        return;
      }
      wait = Math.min(wait * 2, options.maxPollMs);
    }
  } finally {
    unwatch?.();
  }
}
