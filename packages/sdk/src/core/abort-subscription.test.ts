import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { holdAbortListener, raceAbort, subscribeToAbort } from './abort-subscription.js';

const listenerCount = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('subscribeToAbort', () => {
  it('keeps one listener on the signal however many wait, and none once all unsubscribed', () => {
    const controller = new AbortController();
    const subscriptions = Array.from({ length: 1000 }, () => subscribeToAbort(controller.signal, () => {}));
    expect(listenerCount(controller.signal)).toBe(1);
    for (const subscription of subscriptions.slice(1)) subscription.unsubscribe();
    expect(listenerCount(controller.signal)).toBe(1);
    subscriptions[0]?.unsubscribe();
    expect(listenerCount(controller.signal)).toBe(0);
    // A new waiter after the set emptied subscribes again.
    const again = subscribeToAbort(controller.signal, () => {});
    expect(listenerCount(controller.signal)).toBe(1);
    again.unsubscribe();
    expect(listenerCount(controller.signal)).toBe(0);
  });

  it('calls each subscribed callback once with the reason, and no unsubscribed one', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    subscribeToAbort(controller.signal, (reason) => calls.push(`a:${String(reason)}`));
    subscribeToAbort(controller.signal, (reason) => calls.push(`b:${String(reason)}`)).unsubscribe();
    const same = (reason: unknown) => calls.push(`c:${String(reason)}`);
    subscribeToAbort(controller.signal, same);
    subscribeToAbort(controller.signal, same);
    controller.abort('stop');
    controller.abort('again');
    expect(calls).toEqual(['a:stop', 'c:stop', 'c:stop']);
    expect(listenerCount(controller.signal)).toBe(0);
  });

  it('skips a callback whose subscription another callback ended during the abort', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let second = { unsubscribe: () => {} };
    subscribeToAbort(controller.signal, () => {
      calls.push('first');
      second.unsubscribe();
    });
    second = subscribeToAbort(controller.signal, () => calls.push('second'));
    controller.abort();
    expect(calls).toEqual(['first']);
  });

  it('calls at once for a signal already aborted, and adds no listener', () => {
    const signal = AbortSignal.abort('gone');
    const reasons: unknown[] = [];
    const subscription = subscribeToAbort(signal, (reason) => reasons.push(reason));
    expect(reasons).toEqual(['gone']);
    expect(listenerCount(signal)).toBe(0);
    subscription.unsubscribe();
  });

  it('subscribes nothing without a signal', () => {
    let called = false;
    subscribeToAbort(undefined, () => {
      called = true;
    }).unsubscribe();
    expect(called).toBe(false);
  });
});

describe('raceAbort', () => {
  it('settles with the promise and leaves no listener', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
    expect(listenerCount(controller.signal)).toBe(0);
  });

  it('rejects with the reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => {});
    const raced = raceAbort(never, controller.signal);
    controller.abort('cut');
    await expect(raced).rejects.toBe('cut');
    expect(listenerCount(controller.signal)).toBe(0);
  });
});

describe('holdAbortListener (issue 31)', () => {
  it('keeps one listener while held, so waits one after another add and remove none', () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const release = holdAbortListener(controller.signal);
    expect(listenerCount(controller.signal)).toBe(1);
    for (let wait = 0; wait < 50; wait += 1) subscribeToAbort(controller.signal, () => {}).unsubscribe();
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove).toHaveBeenCalledTimes(0);
    expect(listenerCount(controller.signal)).toBe(1);
    release();
    release();
    expect(listenerCount(controller.signal)).toBe(0);
  });

  it('still calls a waiter on abort while held, and leaves the listener to the last waiter after release', () => {
    const controller = new AbortController();
    const release = holdAbortListener(controller.signal);
    const reasons: unknown[] = [];
    const waiting = subscribeToAbort(controller.signal, (reason) => reasons.push(reason));
    release();
    expect(listenerCount(controller.signal)).toBe(1);
    waiting.unsubscribe();
    expect(listenerCount(controller.signal)).toBe(0);
    const again = holdAbortListener(controller.signal);
    subscribeToAbort(controller.signal, (reason) => reasons.push(reason));
    controller.abort('stop');
    expect(reasons).toEqual(['stop']);
    again();
    expect(listenerCount(controller.signal)).toBe(0);
  });
});
