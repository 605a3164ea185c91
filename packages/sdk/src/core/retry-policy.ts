import { type Failure, isRetryableFailure } from './failure.js';

/** The runtime retry settings of a run (C-7, C-8, C-9, X-5). */
export interface RetryPolicy {
  /** Runtime auto-retry switch; off by default (C-7). */
  enabled: boolean;
  /** Total attempts per logical call, the first included (C-8). */
  attempts: number;
  /** Wait before a retry, in milliseconds (C-9); counts toward the run deadline. */
  waitMs: number;
  /** Replaces the default classification (`isRetryableFailure`). Reads typed fields only. */
  isRetryable?: (failure: Failure) => boolean;
}

/** What to do after a failed attempt. */
export type RetryDecision =
  | { retry: true; waitMs: number }
  | { retry: false; why: 'off' | 'not-retryable' | 'exhausted' | 'deadline' };

/** How waits grow between attempts: fixed (tools, C-9) or doubling (model connections, N-11). */
export type BackoffShape = 'fixed' | 'exponential';

/**
 * Decides whether the attempt numbered `attempt` (1-based) may be followed by another: by the
 * switch, the typed classification, the attempt count and the remaining run time. A wait
 * asked for by the other side (`Retry-After`) replaces the computed one. A retry whose wait would
 * end after the deadline is not started.
 */
export function decideRetry(input: {
  policy: RetryPolicy;
  failure: Failure;
  attempt: number;
  now: number;
  deadlineAt: number;
  backoff?: BackoffShape;
}): RetryDecision {
  const { policy, failure, attempt, now, deadlineAt } = input;
  if (!policy.enabled) return { retry: false, why: 'off' };
  const retryable = policy.isRetryable ? policy.isRetryable(failure) : isRetryableFailure(failure);
  if (!retryable) return { retry: false, why: 'not-retryable' };
  if (attempt >= policy.attempts) return { retry: false, why: 'exhausted' };
  const computed = input.backoff === 'exponential' ? policy.waitMs * 2 ** (attempt - 1) : policy.waitMs;
  const waitMs = failure.retryAfterMs ?? computed;
  if (now + waitMs >= deadlineAt) return { retry: false, why: 'deadline' };
  return { retry: true, waitMs };
}
