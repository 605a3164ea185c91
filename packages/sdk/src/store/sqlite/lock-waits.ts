import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

/**
 * How long a caller refused by another process's SQLite write lock tries again at each turn of the
 * event loop (`setImmediate`) before it waits on timers: another process's commit holds the lock
 * for well under a millisecond, and Node's shortest timer is a millisecond.
 */
export const LOCK_SPIN_MS = 2;

/**
 * Waits before the next try of a statement that SQLite refused with `SQLITE_BUSY` (another process
 * holds the write lock), without blocking the event loop: the next turn of the loop while less
 * than `LOCK_SPIN_MS` has passed since the first refusal (`refusedAt`, from `performance.now()`),
 * then `timerMs` on a timer (the caller's back-off).
 *
 * Why (issue 34): on the embedded default the serving process and its worker child write the same
 * two files, and each commit holds a lock for tens to hundreds of microseconds. A first wait of 1
 * or 2 ms on a timer slept ten times longer than the lock was held, while the waiter held the
 * work queued behind it (the platform's one connection, a transaction on the other file): in
 * `bench:platform` the worker child's platform connection spent about half its held time asleep.
 * Each turn of the loop runs the process's other work first, so the spin costs one try per turn.
 * The back-off's timer is the global `setTimeout` (test fake timers drive it); the spin's
 * `setImmediate` is `node:timers`' own, like `yieldIfTurnIsLong`'s.
 */
export function waitForLock(refusedAt: number, timerMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (performance.now() - refusedAt < LOCK_SPIN_MS) setImmediate(resolve);
    else setTimeout(resolve, timerMs);
  });
}
