import { type AbortSubscription, subscribeToAbort } from './abort-subscription.js';
import { type ArmedDeadline, armDeadline, disarmDeadline } from './deadline-timer.js';

/**
 * Guards one attempt of an external call (a tool attempt, a model stream): it fails the attempt
 * when the outer signal aborts (stop, deadline, lost ownership) or when its own timer fires, and
 * aborts the signal handed to the callee so that well-behaved code stops early. A callee that
 * ignores its signal cannot hold the run: `race` settles as soon as the guard fires.
 *
 * The callee's `AbortSignal` is created only if the callee reads it: most trivial tools never do,
 * and an `AbortController` per attempt is a measurable share of the per-loop overhead. Likewise
 * the guard's timer is a deadline on the shared timer (`armDeadline`), and a race waits on one
 * promise of its own rather than `Promise.race` against a standing rejection (issue 31: a model
 * call races each part of its stream).
 */
export class AttemptGuard {
  private controller: AbortController | undefined;
  private fired = false;
  private reason: unknown;
  /** Rejects the latest race (a no-op once it has settled). */
  private rejectRace: ((reason: unknown) => void) | undefined;
  private deadline: ArmedDeadline | undefined;
  private readonly outerSubscription: AbortSubscription;

  constructor(outer: AbortSignal) {
    this.outerSubscription = subscribeToAbort(outer, (reason) => this.fire(reason));
  }

  /** The signal for the callee; aborted with the guard's reason once it fires. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.fired) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Whether the guard fired, and with what. */
  get firedReason(): { reason: unknown } | undefined {
    return this.fired ? { reason: this.reason } : undefined;
  }

  /** Fails the attempt with `reason` (first call wins). */
  fire(reason: unknown): void {
    if (this.fired) return;
    this.fired = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.rejectRace?.(reason);
    this.rejectRace = undefined;
  }

  /** (Re)arms the guard's single timer; `onExpire` decides whether to fire. */
  setTimer(ms: number, onExpire: () => void): void {
    if (this.deadline) disarmDeadline(this.deadline);
    this.deadline = armDeadline(ms, onExpire);
  }

  /**
   * Settles with `promise`, or rejects with the guard's reason if it fires first (at once if it
   * has fired). One race at a time: an attempt awaits each race before the next.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.fired) {
      promise.catch(() => {});
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      // Kept after the race settles: rejecting a settled promise does nothing.
      this.rejectRace = reject;
      promise.then(resolve, reject);
    });
  }

  /** Stops the timer and the outer subscription; call once the attempt is over. */
  dispose(): void {
    if (this.deadline) disarmDeadline(this.deadline);
    this.deadline = undefined;
    this.outerSubscription.unsubscribe();
  }
}
