import { type AbortSubscription, subscribeToAbort } from './abort-subscription.js';

/**
 * Guards one attempt of an external call (a tool attempt, a model stream): it fails the attempt
 * when the outer signal aborts (stop, deadline, lost ownership) or when its own timer fires, and
 * aborts the signal handed to the callee so that well-behaved code stops early. A callee that
 * ignores its signal cannot hold the run: `race` settles as soon as the guard fires.
 *
 * The callee's `AbortSignal` is created only if the callee reads it: most trivial tools never do,
 * and an `AbortController` per attempt is a measurable share of the per-loop overhead.
 */
export class AttemptGuard {
  /** Rejects with the reason as soon as the guard fires. */
  readonly failed: Promise<never>;
  private controller: AbortController | undefined;
  private fired = false;
  private reason: unknown;
  private rejectFailed: (reason: unknown) => void = () => {};
  private timer: NodeJS.Timeout | undefined;
  private readonly outerSubscription: AbortSubscription;

  constructor(outer: AbortSignal) {
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(() => {});
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
    this.rejectFailed(reason);
  }

  /** (Re)arms the guard's single timer; `onExpire` decides whether to fire. */
  setTimer(ms: number, onExpire: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(onExpire, Math.max(0, ms));
  }

  /** Settles with `promise`, or rejects with the guard's reason if it fires first. */
  race<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.failed]);
  }

  /** Stops the timer and the outer subscription; call once the attempt is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.outerSubscription.unsubscribe();
  }
}
