import { subscribeToAbort } from './abort-subscription.js';

/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as `signal` aborts. A
 * retry wait uses it so that a stop or a deadline during the wait starts no retry.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(
      () => {
        subscription.unsubscribe();
        resolve();
      },
      Math.max(0, ms),
    );
    const subscription = subscribeToAbort(signal, (reason) => {
      clearTimeout(timer);
      reject(reason);
    });
  });
}
