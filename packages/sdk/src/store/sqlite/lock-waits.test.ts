import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCK_SPIN_MS, waitForLock } from './lock-waits.js';

/**
 * A caller refused by another process's write lock tries again at the next turn of the event loop
 * while the refusal is recent (a commit holds the lock for well under a millisecond), and only
 * then backs off on timers (issue 34). Counted through the timers it sets, never timed.
 */
describe('waitForLock', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('waits one turn of the event loop, on no timer, while the refusal is recent', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    // A minute's back-off: only the spin can settle this within the test's time.
    await waitForLock(performance.now(), 60_000);
    expect(timers).not.toHaveBeenCalled();
  });

  it('backs off on a timer of the given length once the refusal is older than the spin', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await waitForLock(performance.now() - LOCK_SPIN_MS, 3);
    expect(timers).toHaveBeenCalledTimes(1);
    expect(timers.mock.calls[0]?.[1]).toBe(3);
  });
});
