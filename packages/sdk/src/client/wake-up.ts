/**
 * A follower's wake-up (ADR 0025): the store's `watchRun` listener calls `signal(through)` after
 * each write; `wait(…, read)` returns at once if a signal came since the last wait that may
 * concern entries after `read`, else at the next such signal, after `safetyNetMs` (a read the
 * store's silence cannot prevent), or `false` when aborted.
 *
 * A signal that names the journal's last sequence after its write (`through`) and that the
 * follower has already read past is spent: a write's notification often arrives after the read
 * that found its entries (the follower read because of an earlier write), and reading again then
 * found nothing and checked the run as well (issue 34: two statements per run, on every follower).
 */
export class WakeUp {
  /** The newest sequence a signal named since the last wait returned; `Infinity`: one named none. */
  private signalledThrough = 0;
  /** Signals after this sequence end the wait under way. */
  private waitingAfter = Number.POSITIVE_INFINITY;
  private resolve: (() => void) | undefined;

  signal(through?: number): void {
    const newest = through ?? Number.POSITIVE_INFINITY;
    if (newest > this.signalledThrough) this.signalledThrough = newest;
    if (newest > this.waitingAfter) this.resolve?.();
  }

  /**
   * Waits for a signal about entries after `read` (the last sequence the follower has read; a
   * signal without a sequence always counts) or the safety net; answers `false` if `abort` fired.
   */
  async wait(safetyNetMs: number, abort?: AbortSignal, read = 0): Promise<boolean> {
    if (abort?.aborted) return false;
    const pending = this.signalledThrough > read;
    this.signalledThrough = 0;
    if (pending) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    this.waitingAfter = read;
    const woken = await new Promise<boolean>((resolve) => {
      this.resolve = () => resolve(true);
      timer = setTimeout(() => resolve(true), safetyNetMs);
      onAbort = () => resolve(false);
      abort?.addEventListener('abort', onAbort, { once: true });
    });
    clearTimeout(timer);
    if (onAbort) abort?.removeEventListener('abort', onAbort);
    this.resolve = undefined;
    this.waitingAfter = Number.POSITIVE_INFINITY;
    this.signalledThrough = 0;
    return woken;
  }
}
