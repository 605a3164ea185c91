import { abortableSleep } from '../../core/abortable-sleep.js';
import { StoreFailureError } from '../../core/errors/index.js';

/** First wait after a transient store failure, in milliseconds; doubled on each further failure. */
const FIRST_WAIT_MS = 25;
/** Longest single wait: a store that comes back is noticed within this long. */
const LONGEST_WAIT_MS = 1_000;

/** Whether `error` is a store failure that may go away if the same call is tried again. */
export function isTransientStoreFailure(error: unknown): boolean {
  return StoreFailureError.isInstance(error) && error.transient;
}

/**
 * The wait before retry number `attempt` (0-based) of a store call: exponential from 25 ms up to
 * 1 s, with up to 50 % random jitter so that many workers hit by the same outage do not retry in
 * step.
 */
export function storeRetryWait(attempt: number): number {
  const base = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.5 + Math.random() * 0.5));
}

/**
 * Calls `operation` until it answers, retrying transient store failures with back-off while a
 * retry can still end before `until()` (epoch milliseconds, e.g. the end of the run's lease).
 * Anything else, and the last transient failure once time is up, is thrown unchanged. Only for
 * calls that are safe to repeat (reads, or writes whose effect the caller checks first).
 */
export async function retryTransient<T>(
  operation: () => Promise<T>,
  options: { until: () => number; now?: () => number; signal?: AbortSignal },
): Promise<T> {
  const now = options.now ?? Date.now;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!isTransientStoreFailure(error)) throw error;
      const wait = storeRetryWait(attempt);
      if (now() + wait >= options.until()) throw error;
      await abortableSleep(wait, options.signal);
    }
  }
}
