import { type AbortSubscription, subscribeToAbort } from '../../core/abort-subscription.js';

/** Why a run's work was interrupted: control flow, never a tool or model error. */
export type InterruptReason = 'user-stop' | 'run-timeout' | 'ownership-lost' | 'detached';

/**
 * The value a run's control signal aborts with. Code that awaits inside a run rethrows it
 * unchanged so that the engine can end the run with the right typed reason.
 */
export class RunInterrupt {
  readonly reason: InterruptReason;
  readonly cause: unknown;
  /**
   * For a detach: when its bound ends (epoch ms). Work that hands over runs of its own (a workflow's
   * inner agent runs) detaches them within what is left of it.
   */
  readonly settleUntil: number | undefined;

  constructor(reason: InterruptReason, cause?: unknown, settleUntil?: number) {
    this.reason = reason;
    this.cause = cause;
    this.settleUntil = settleUntil;
  }

  /** Whether `value` is a `RunInterrupt`. */
  static isInstance(value: unknown): value is RunInterrupt {
    return value instanceof RunInterrupt;
  }
}

/**
 * One run's control state in this process. Two signals, because a stop and a deadline differ
 * (S-5, X-10):
 * - `signal` (admission) aborts on any interruption: no new loop, model call, attempt, retry or
 *   executor starts after it, and a model call in progress is abandoned (it has no effect to keep).
 * - `hardSignal` aborts only on the deadline or a lost ownership: it cuts calls in flight. After a
 *   user stop, calls in flight are allowed to settle and their results are kept.
 * - `callSignal` cuts a model call in flight: on every interruption but a detach, whose calls in
 *   flight may settle (and be saved) until its bound, like tool calls.
 * A detach (a host handing the run to another process) aborts `signal` at once and
 * the other two when its bound runs out. The first reason wins.
 */
export class RunControl {
  private readonly controller = new AbortController();
  private readonly hardController = new AbortController();
  /** Created when first asked for (a workflow run never is): an `AbortController` per run is not free. */
  private callController: AbortController | undefined;
  /** Why calls in flight were cut, if they were (applied to `callController` when it is created later). */
  private callsCut: RunInterrupt | undefined;
  private detachTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private readonly followed: AbortSubscription[] = [];

  /** Aborted with a `RunInterrupt` as soon as the run must stop admitting work. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborted with a `RunInterrupt` when calls in flight must be cut: deadline or lost ownership. */
  get hardSignal(): AbortSignal {
    return this.hardController.signal;
  }

  /** Aborted with a `RunInterrupt` when a model call in flight must be abandoned. */
  get callSignal(): AbortSignal {
    if (!this.callController) {
      this.callController = new AbortController();
      if (this.callsCut) this.callController.abort(this.callsCut);
    }
    return this.callController.signal;
  }

  /** The interruption, once there is one. */
  get interrupt(): RunInterrupt | undefined {
    return this.controller.signal.aborted ? (this.controller.signal.reason as RunInterrupt) : undefined;
  }

  /** Throws the interruption if there is one. */
  throwIfInterrupted(): void {
    const interrupt = this.interrupt;
    if (interrupt) throw interrupt;
  }

  stop(): void {
    this.abort(new RunInterrupt('user-stop'));
  }

  /**
   * Stops the run when `signal` aborts: a caller's (or a parent run's) stop reaching this run.
   * `dispose` ends the subscription, so a signal shared by many runs keeps no listener of theirs.
   */
  followSignal(signal: AbortSignal | undefined): void {
    this.followed.push(subscribeToAbort(signal, () => this.stop()));
  }

  /**
   * Hands the run over: nothing new is admitted from now on; calls in flight may settle
   * and be saved for `settleMs`, then they are cut and the engine lets go without writing more.
   */
  detach(settleMs: number): void {
    if (this.controller.signal.aborted) return;
    const bound = Math.max(0, settleMs);
    const interrupt = new RunInterrupt('detached', undefined, Date.now() + bound);
    this.controller.abort(interrupt);
    this.detachTimer = setTimeout(() => this.cut(interrupt), bound);
    this.detachTimer.unref();
  }

  /** Ends the run's time now: called when a wait bounded by the deadline runs out first. */
  timeOut(): void {
    this.abort(new RunInterrupt('run-timeout'));
  }

  loseOwnership(cause?: unknown): void {
    this.abort(new RunInterrupt('ownership-lost', cause));
  }

  /** Arms the deadline fixed at the run's creation; it is never restarted. */
  armDeadline(deadlineAt: number, now: number = Date.now()): void {
    clearTimeout(this.deadlineTimer);
    const remaining = deadlineAt - now;
    if (remaining <= 0) {
      this.abort(new RunInterrupt('run-timeout'));
      return;
    }
    // Timers cannot wait longer than 2^31-1 ms; re-arm for longer deadlines.
    const wait = Math.min(remaining, 2_147_483_647);
    this.deadlineTimer = setTimeout(() => this.armDeadline(deadlineAt), wait);
    this.deadlineTimer.unref();
  }

  /** Releases timers and followed signals once the run has settled; safe to call again. */
  dispose(): void {
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.detachTimer);
    for (const subscription of this.followed.splice(0)) subscription.unsubscribe();
  }

  private abort(interrupt: RunInterrupt): void {
    if (!this.controller.signal.aborted) this.controller.abort(interrupt);
    // A detach's calls in flight are cut only by its own bound, or by the deadline or a lost ownership.
    const detaching = this.interrupt?.reason === 'detached';
    if (interrupt.reason === 'user-stop' && detaching) return;
    this.cutCalls(interrupt);
    if (interrupt.reason !== 'user-stop' && !this.hardController.signal.aborted) this.hardController.abort(interrupt);
  }

  /** Cuts calls in flight: the end of a detach's bound. */
  /** Cuts the calls in flight (first reason wins), now or when `callSignal` is first read. */
  private cutCalls(interrupt: RunInterrupt): void {
    if (this.callsCut) return;
    this.callsCut = interrupt;
    this.callController?.abort(interrupt);
  }

  private cut(interrupt: RunInterrupt): void {
    this.cutCalls(interrupt);
    if (!this.hardController.signal.aborted) this.hardController.abort(interrupt);
  }
}
