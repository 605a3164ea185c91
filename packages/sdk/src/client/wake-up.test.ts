import { describe, expect, it } from 'vitest';
import { WakeUp } from './wake-up.js';

/** Settles `wait` against a short safety net: `true` if it returned before the net, by a signal. */
async function wokenBySignal(wakeUp: WakeUp, read: number, during?: () => void): Promise<boolean> {
  let netFired = false;
  const timer = setTimeout(() => {
    netFired = true;
  }, 150);
  const waiting = wakeUp.wait(200, undefined, read);
  during?.();
  await waiting;
  clearTimeout(timer);
  return !netFired;
}

describe('a follower wake-up (ADR 0025, issue 34)', () => {
  it('a signal about entries the follower has read is spent; one about later entries, or about none in particular, wakes it', async () => {
    const before = new WakeUp();
    before.signal(5);
    expect(await wokenBySignal(before, 5)).toBe(false);
    before.signal(6);
    expect(await wokenBySignal(before, 5)).toBe(true);
    before.signal();
    expect(await wokenBySignal(before, 9)).toBe(true);

    const during = new WakeUp();
    expect(await wokenBySignal(during, 5, () => during.signal(4))).toBe(false);
    expect(await wokenBySignal(during, 5, () => during.signal(7))).toBe(true);
    expect(await wokenBySignal(during, 5, () => during.signal())).toBe(true);
  });

  it('a signal that came before a wait counts once: the wait after it waits again', async () => {
    const wakeUp = new WakeUp();
    wakeUp.signal(3);
    wakeUp.signal(8);
    expect(await wokenBySignal(wakeUp, 2)).toBe(true);
    expect(await wokenBySignal(wakeUp, 2)).toBe(false);
  });

  it('answers false when aborted', async () => {
    const wakeUp = new WakeUp();
    const controller = new AbortController();
    const waiting = wakeUp.wait(60_000, controller.signal, 0);
    controller.abort();
    expect(await waiting).toBe(false);
  });
});
