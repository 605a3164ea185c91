/**
 * Limits failed logins per account and per client address: after `maximumFailures` failures
 * within `windowMs`, further attempts are refused until the oldest failure leaves the window.
 * Kept in memory: on many API nodes each node limits on its own, which still bounds guessing to
 * a small multiple of the limit.
 */
export class LoginRateLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maximumFailures = 5,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  /** Milliseconds until another attempt is allowed for any of `keys`, or 0 when allowed now. */
  retryAfterMs(keys: readonly string[], now: number): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.maximumFailures) wait = Math.max(wait, (recent[0] ?? now) + this.windowMs - now);
    }
    return wait;
  }

  recordFailure(keys: readonly string[], now: number): void {
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  recordSuccess(keys: readonly string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }
}
