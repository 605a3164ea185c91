import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

/**
 * How long one turn of the event loop may go on making synchronous SQLite calls before the next
 * call lets the loop turn first, so that timers, sockets and streams run (issue 34).
 */
export const TURN_BUDGET_MS = 5;

/** When the event loop's current turn made its first SQLite call; undefined once the loop has turned. */
let turnStartedAt: number | undefined;

/**
 * Answers a promise to wait on before the next synchronous SQLite call when this turn of the event
 * loop has been calling SQLite for over `TURN_BUDGET_MS`, and undefined (go on at once) otherwise.
 *
 * Why: better-sqlite3 calls are synchronous and the promises around them settle at once, so a
 * burst (50 requests or followers served together) ran call after call in one chain of microtasks
 * while every timer and stream of the process waited: the platform's event loop stood still for
 * 70–100 ms. One budget per process: the SDK's SQLite store and any other synchronous SQLite
 * user of the process (the platform's database driver) call this, so together they keep it.
 * Call it only between operations, never inside a transaction, so no lock is held across the
 * pause. It uses `node:timers`, so test fake timers that replace the global `setImmediate` do not
 * hold it back.
 */
export function yieldIfTurnIsLong(): Promise<void> | undefined {
  const now = performance.now();
  if (turnStartedAt === undefined) {
    turnStartedAt = now;
    setImmediate(() => {
      turnStartedAt = undefined;
    });
    return undefined;
  }
  if (now - turnStartedAt < TURN_BUDGET_MS) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}
