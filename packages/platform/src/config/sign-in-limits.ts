/** How failed sign-ins slow down guessing without locking other users out (P-15.3). */
export interface SignInLimits {
  /** Failed sign-ins of one account before its back-off starts. */
  accountFailures: number;
  /** The first back-off of an account, in ms; it doubles with each further failure. */
  backoffMs: number;
  /** The longest back-off of an account, in ms. */
  maximumBackoffMs: number;
  /** Failed sign-ins from one client address within `addressWindowMs` before it is refused (much higher). */
  addressFailures: number;
  /** The window of the per-address count, in ms; successes never shorten it. */
  addressWindowMs: number;
}

/** Defaults: 5 free failures per account, then 1 s doubling up to 15 min; 100 failures per address in 15 min. */
export const defaultSignInLimits: SignInLimits = {
  accountFailures: 5,
  backoffMs: 1_000,
  maximumBackoffMs: 15 * 60_000,
  addressFailures: 100,
  addressWindowMs: 15 * 60_000,
};

/** The back-off after `failures` consecutive failures of one account, in ms (0 before `accountFailures`). */
export function backoffAfter(limits: SignInLimits, failures: number): number {
  if (failures < limits.accountFailures) return 0;
  const doublings = Math.min(failures - limits.accountFailures, 40);
  return Math.min(limits.maximumBackoffMs, limits.backoffMs * 2 ** doublings);
}

/**
 * The most failures one account's back-off lets through within one address window: its free
 * failures at once, then one each time a back-off ends. The per-address limit must stay above
 * it, so that guessing at one account can never block the address for everyone else.
 */
export function mostAccountFailuresPerWindow(limits: SignInLimits): number {
  let failures = limits.accountFailures;
  let elapsed = 0;
  for (;;) {
    const wait = backoffAfter(limits, failures);
    // Once the back-off is at its longest, the rest of the window holds a fixed number of them.
    if (wait >= limits.maximumBackoffMs) return failures + Math.floor((limits.addressWindowMs - elapsed - 1) / wait);
    elapsed += wait;
    if (elapsed >= limits.addressWindowMs) return failures;
    failures += 1;
  }
}
