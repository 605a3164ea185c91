/**
 * The one way the SDK listens to an `AbortSignal`: `subscribeToAbort` returns a subscription that
 * must be ended, and however many subscriptions a signal has, the signal itself carries at most
 * one listener of ours.
 *
 * Why: a run's signals are shared by every task of a superstep (a fan-out of thousands), every
 * retry wait and every inner agent run. One `addEventListener` per waiter made Node warn
 * `MaxListenersExceededWarning`, and raising the limit would also hide a real leak (a waiter that
 * never unsubscribes). Here the waiters of a signal are kept in a set behind a single listener,
 * which is removed as soon as the set is empty, so a signal's listener count says whether someone
 * forgot to unsubscribe.
 */

/** Called once, with the signal's reason, when the signal aborts. */
export type AbortCallback = (reason: unknown) => void;

/** A live subscription; `unsubscribe` is idempotent and safe after the signal aborted. */
export interface AbortSubscription {
  unsubscribe(): void;
}

const noSubscription: AbortSubscription = { unsubscribe: () => {} };

/** The callbacks waiting on each signal, behind the single listener `dispatchers` holds. */
const waiters = new WeakMap<AbortSignal, Set<AbortCallback>>();
const dispatchers = new WeakMap<AbortSignal, () => void>();
/** Signals whose listener stays while nobody waits (`holdAbortListener`), with their hold count. */
const holds = new WeakMap<AbortSignal, number>();

/**
 * Calls `callback` once when `signal` aborts, or at once (synchronously) if it already has.
 * Without a signal, nothing is subscribed. End the subscription when the wait is over, in a
 * `finally` or with `whileSubscribed`.
 */
export function subscribeToAbort(signal: AbortSignal | undefined, callback: AbortCallback): AbortSubscription {
  if (!signal) return noSubscription;
  if (signal.aborted) {
    callback(signal.reason);
    return noSubscription;
  }
  let callbacks = waiters.get(signal);
  if (!callbacks) {
    const created = new Set<AbortCallback>();
    callbacks = created;
    const dispatch = () => {
      waiters.delete(signal);
      dispatchers.delete(signal);
      // A callback may end another's subscription meanwhile: call only those still subscribed.
      for (const waiting of [...created]) if (created.has(waiting)) waiting(signal.reason);
      created.clear();
    };
    waiters.set(signal, created);
    dispatchers.set(signal, dispatch);
    signal.addEventListener('abort', dispatch, { once: true });
  }
  // A distinct wrapper per subscription: the same function may be subscribed twice.
  const entry: AbortCallback = (reason) => callback(reason);
  callbacks.add(entry);
  const owned = callbacks;
  return {
    unsubscribe: () => {
      if (!owned.delete(entry) || owned.size > 0 || holds.has(signal)) return;
      removeListener(signal, owned);
    },
  };
}

/** Takes the single listener off `signal` if `callbacks` are still its waiters. */
function removeListener(signal: AbortSignal, callbacks: Set<AbortCallback>): void {
  const dispatch = dispatchers.get(signal);
  if (dispatch && waiters.get(signal) === callbacks) {
    signal.removeEventListener('abort', dispatch);
    waiters.delete(signal);
    dispatchers.delete(signal);
  }
}

/**
 * Keeps the single listener on `signal` while nobody waits, until the returned release (called
 * once per hold; holds nest). For a signal that many short waits subscribe to one after the
 * other — a run's hard signal, which every model call of a team turn subscribes to and leaves
 * (issue 31): each wait is then a set operation instead of a listener added and removed. Once
 * released with no waiter, the signal carries no listener of ours again.
 */
export function holdAbortListener(signal: AbortSignal): () => void {
  if (signal.aborted) return () => {};
  holds.set(signal, (holds.get(signal) ?? 0) + 1);
  // Subscribing and leaving installs the listener, which the hold now keeps.
  subscribeToAbort(signal, () => {}).unsubscribe();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const count = (holds.get(signal) ?? 1) - 1;
    if (count > 0) {
      holds.set(signal, count);
      return;
    }
    holds.delete(signal);
    const callbacks = waiters.get(signal);
    if (callbacks && callbacks.size === 0) removeListener(signal, callbacks);
  };
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts (unsubscribing either way). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const subscription = subscribeToAbort(signal, reject);
    promise.then(
      (value) => {
        subscription.unsubscribe();
        resolve(value);
      },
      (error: unknown) => {
        subscription.unsubscribe();
        reject(error);
      },
    );
  });
}
