/**
 * A follower's wake-up (ADR 0024): the store's `watchRun` listener calls `signal()` after each
 * write; `wait()` returns at once if a signal came since the last wait, else at the next signal,
 * after `safetyNetMs` (a read the store's silence cannot prevent), or `false` when aborted.
 */
export class WakeUp {
  private signalled = false;
  private resolve: (() => void) | undefined;

  signal(): void {
    this.signalled = true;
    this.resolve?.();
  }

  /** Waits for a signal or the safety net; answers `false` if `abort` fired. */
  async wait(safetyNetMs: number, abort?: AbortSignal): Promise<boolean> {
    if (abort?.aborted) return false;
    if (this.signalled) {
      this.signalled = false;
      return true;
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const woken = await new Promise<boolean>((resolve) => {
      this.resolve = () => resolve(true);
      timer = setTimeout(() => resolve(true), safetyNetMs);
      onAbort = () => resolve(false);
      abort?.addEventListener('abort', onAbort, { once: true });
    });
    clearTimeout(timer);
    if (onAbort) abort?.removeEventListener('abort', onAbort);
    this.resolve = undefined;
    this.signalled = false;
    return woken;
  }
}
