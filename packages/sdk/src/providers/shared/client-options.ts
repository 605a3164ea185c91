/**
 * Options every official client is created with, so that the connection layer stays the only
 * layer that retries and times out: the client's own retries are off (`maxRetries: 0`),
 * and its request timeout is the longest a timer can hold, so it never fires before the
 * first-output timeout, the stall detection or the run deadline that `callModel` applies through
 * the abort signal. (A timeout above 2^31 - 1 ms would overflow Node's timers and fire at once.)
 */
export const delegatedClientOptions = { maxRetries: 0, timeout: 2_147_483_647 } as const;
