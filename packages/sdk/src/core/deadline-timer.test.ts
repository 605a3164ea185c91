import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttemptGuard } from './attempt-guard.js';
import { armDeadline, armedDeadlines, disarmDeadline } from './deadline-timer.js';

afterEach(() => vi.restoreAllMocks());

describe('armDeadline (issue 31)', () => {
  it('arms many deadlines on one Node timer, and disarms them without touching it', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout');
    const fired: number[] = [];
    const deadlines = Array.from({ length: 100 }, (_, index) => armDeadline(600_000 + index, () => fired.push(index)));
    expect(armedDeadlines()).toBe(100);
    // At most one timer set (none when an earlier one is set already), whatever the number of deadlines.
    expect(setTimer.mock.calls.length).toBeLessThanOrEqual(1);
    for (const deadline of deadlines) disarmDeadline(deadline);
    disarmDeadline(deadlines[0] as (typeof deadlines)[0]);
    expect(armedDeadlines()).toBe(0);
    expect(clearTimer.mock.calls.length).toBeLessThanOrEqual(1);
    expect(fired).toEqual([]);
  });

  it('fires each deadline once, the earliest first, and one armed from a firing one', async () => {
    const fired: string[] = [];
    const late = armDeadline(40, () => fired.push('late'));
    armDeadline(5, () => {
      fired.push('early');
      armDeadline(5, () => fired.push('re-armed'));
    });
    const dropped = armDeadline(20, () => fired.push('dropped'));
    disarmDeadline(dropped);
    await vi.waitFor(() => expect(fired).toHaveLength(3), { timeout: 2_000, interval: 5 });
    expect(fired).toEqual(['early', 're-armed', 'late']);
    disarmDeadline(late);
    expect(armedDeadlines()).toBe(0);
  });
});

describe('AttemptGuard (issue 31)', () => {
  it('rejects a race in progress when it fires, and a later race at once', async () => {
    const guard = new AttemptGuard(new AbortController().signal);
    expect(await guard.race(Promise.resolve(1))).toBe(1);
    const pending = guard.race(new Promise<number>(() => {}));
    guard.fire(new Error('cut'));
    await expect(pending).rejects.toThrow('cut');
    await expect(guard.race(Promise.reject(new Error('late')))).rejects.toThrow('cut');
    guard.dispose();
  });

  it('fires on its timer and on the outer signal, and leaves no deadline armed once disposed', async () => {
    const outer = new AbortController();
    const timed = new AttemptGuard(outer.signal);
    timed.setTimer(5, () => timed.fire(new Error('timeout')));
    await expect(timed.race(new Promise(() => {}))).rejects.toThrow('timeout');
    timed.dispose();
    const stopped = new AttemptGuard(outer.signal);
    stopped.setTimer(600_000, () => stopped.fire(new Error('never')));
    const waiting = stopped.race(new Promise(() => {}));
    outer.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    stopped.dispose();
    expect(armedDeadlines()).toBe(0);
  });
});
