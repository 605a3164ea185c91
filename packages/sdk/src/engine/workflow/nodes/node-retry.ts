import { z } from 'zod';
import { type FailureKind, isRetryableFailure } from '../../../core/failure.js';
import type { WorkflowTaskFailure } from './workflow-node.js';

/** A kind of task failure (`tool-failed`, `node-error` …) or of the attempt failure it carries (`timeout`, `tool-error` …). */
export type RetryableKind = WorkflowTaskFailure['kind'] | FailureKind;

/**
 * The retry policy of a capability or function node (C-7 … C-9 and X-5, applied to workflow
 * tasks): how many attempts one task gets, how long it waits between them and which typed
 * failures are worth another attempt. Every attempt of a task keeps its task id, which is the
 * tool's `operationId`; each failed attempt is saved before the wait, so a crash resumes the
 * attempts where they were and never resets them. Agent nodes do not take one: an agent keeps its
 * own retry policy for its model and tool calls (W-6).
 *
 * @example
 * builder.addCapabilityNode('fetch', fetchTool, { input: { url: 'url' }, output: 'page', retry: { attempts: 3, waitMs: 500 } });
 */
export interface NodeRetryPolicy {
  /** Attempts in all, the first included (C-8). 1 means no retry. */
  attempts: number;
  /** Wait before the second attempt, in milliseconds (C-9); counts toward the run deadline. Default 1000. */
  waitMs?: number;
  /** `fixed` (default) waits `waitMs` every time; `exponential` doubles it after each attempt. */
  backoff?: 'fixed' | 'exponential';
  /** The longest wait, whatever the back-off. Default: no cap. */
  maxWaitMs?: number;
  /**
   * Which failures are retried: a list of kinds (task failure kinds such as `node-error`, or
   * attempt failure kinds such as `timeout`, `connection`, `tool-error`), or a function of the
   * typed failure (never of message text, X-5). Default: the attempt failures the SDK classes as
   * transient (timeouts, connection, rate limits, server errors, or an error marked `retryable`).
   * Invalid arguments, invalid state updates, undeclared routes and loop limits are never retried.
   */
  retryOn?: readonly RetryableKind[] | ((failure: WorkflowTaskFailure) => boolean);
}

/** The schema `compile()` checks node and workflow retry policies with. */
export const nodeRetrySchema = z
  .object({
    attempts: z.number().int().min(1).max(100),
    waitMs: z.number().int().min(0).optional(),
    backoff: z.enum(['fixed', 'exponential']).optional(),
    maxWaitMs: z.number().int().min(0).optional(),
    retryOn: z
      .union([z.array(z.string()), z.custom<(failure: WorkflowTaskFailure) => boolean>((value) => typeof value === 'function')])
      .optional(),
  })
  .strict();

/** Failure kinds that no retry can mend: the graph or the data is wrong, not the moment. */
const neverRetried: ReadonlySet<WorkflowTaskFailure['kind']> = new Set([
  'invalid-arguments',
  'invalid-state-update',
  'undeclared-route',
  'loop-limit-reached',
  'agent-failed',
]);

/**
 * What to do after the failed attempt number `attempt` (1-based) of a task: wait and try again,
 * or let the failure end the task. A retry whose wait would end after the run's deadline is not
 * started.
 */
export function decideTaskRetry(
  policy: NodeRetryPolicy | undefined,
  failure: WorkflowTaskFailure,
  attempt: number,
  now: number,
  deadlineAt: number,
): { retry: true; waitMs: number } | { retry: false } {
  if (!policy || attempt >= policy.attempts || neverRetried.has(failure.kind)) return { retry: false };
  if (!isRetried(policy, failure)) return { retry: false };
  const base = policy.waitMs ?? 1000;
  const computed = policy.backoff === 'exponential' ? base * 2 ** (attempt - 1) : base;
  const waitMs = Math.min(failure.failure?.retryAfterMs ?? computed, policy.maxWaitMs ?? Number.POSITIVE_INFINITY);
  if (now + waitMs >= deadlineAt) return { retry: false };
  return { retry: true, waitMs };
}

function isRetried(policy: NodeRetryPolicy, failure: WorkflowTaskFailure): boolean {
  const { retryOn } = policy;
  if (typeof retryOn === 'function') return retryOn(failure) === true;
  if (retryOn) return retryOn.includes(failure.kind) || (failure.failure !== undefined && retryOn.includes(failure.failure.kind));
  return failure.failure !== undefined && isRetryableFailure(failure.failure);
}
