import { abortableSleep } from '../core/abortable-sleep.js';
import { AttemptGuard } from '../core/attempt-guard.js';
import { ModelCallError } from '../core/errors/index.js';
import type { Failure } from '../core/failure.js';
import { decideRetry, type RetryPolicy } from '../core/retry-policy.js';
import { ResponseAssembler } from './assemble-response.js';
import type { LanguageModel, ModelRequest, ModelResponse } from './language-model.js';

/** What the connection layer reports about one failed attempt, before any retry wait. */
export interface ModelAttemptFailure {
  attempt: number;
  failure: Failure;
  /** Text the attempt produced before failing: incomplete, never an answer (S-9). */
  partialText: string;
  /** Present when another attempt will follow after this wait. */
  retryWaitMs?: number;
}

/** Options of `callModel`. */
export interface CallModelOptions {
  /** The run's control signal: stop, deadline, lost ownership. Never retried through. */
  signal: AbortSignal;
  /**
   * Cuts an attempt in flight; defaults to `signal`. A run being handed over stops admitting
   * attempts (`signal`) but lets the one in flight finish within a bound, so its response is saved.
   */
  callSignal?: AbortSignal;
  /** Epoch milliseconds of the run deadline; bounds every wait. */
  deadlineAt: number;
  /** Longest wait for the first part of a stream (C-11). Applies only until output starts. */
  firstOutputTimeoutMs: number;
  /** Longest silence between two parts once the stream has started. */
  stallTimeoutMs: number;
  retry: RetryPolicy;
  /** Attempts already made for this logical call (a resumed call continues the count). */
  previousAttempts?: number;
  now?: () => number;
  onAttemptStart?: (attempt: number) => void;
  /** Awaited before waiting to retry, so that the failure is durable first. */
  onAttemptFailed?: (report: ModelAttemptFailure) => Promise<void> | void;
}

/** A complete response and how many attempts it took. */
export interface CallModelResult extends ModelResponse {
  attempt: number;
}

/**
 * The model connection layer: streams each attempt internally, applies the first-output timeout
 * and stall detection, assembles and validates the response, and retries by the run's policy
 * (X-10, X-11, N-11). The engine above only ever sees a complete response or a final
 * `ModelCallError`. A control abort (stop, deadline) is rethrown as its own reason, never
 * turned into a model failure.
 */
export async function callModel(
  model: LanguageModel,
  request: ModelRequest,
  options: CallModelOptions,
): Promise<CallModelResult> {
  const now = options.now ?? Date.now;
  let attempt = options.previousAttempts ?? 0;
  for (;;) {
    attempt += 1;
    options.signal.throwIfAborted();
    options.onAttemptStart?.(attempt);
    try {
      // The assembler's fresh response, completed in place (a spread copied it per call).
      const response = (await attemptOnce(model, request, options)) as CallModelResult;
      response.attempt = attempt;
      return response;
    } catch (error) {
      if (options.signal.aborted) throw (options.callSignal?.aborted ? options.callSignal : options.signal).reason;
      const modelError = ModelCallError.isInstance(error)
        ? error
        : new ModelCallError(failureFromUnexpected(error), { cause: error });
      const decision = decideRetry({
        policy: options.retry,
        failure: modelError.failure,
        attempt,
        now: now(),
        deadlineAt: options.deadlineAt,
        backoff: 'exponential',
      });
      const report: ModelAttemptFailure = { attempt, failure: modelError.failure, partialText: modelError.partialText ?? '' };
      if (decision.retry) report.retryWaitMs = decision.waitMs;
      await options.onAttemptFailed?.(report);
      if (!decision.retry) throw modelError;
      await abortableSleep(decision.waitMs, options.signal);
    }
  }
}

/** Abort reason for an attempt abandoned after a failure; a constant, so no exception is built. */
const ATTEMPT_ABANDONED = Symbol('attempt-abandoned');

async function attemptOnce(model: LanguageModel, request: ModelRequest, options: CallModelOptions): Promise<ModelResponse> {
  const now = options.now ?? Date.now;
  const guard = new AttemptGuard(options.callSignal ?? options.signal);
  const assembler = new ResponseAssembler();
  let timeout: Failure | undefined;
  let started = false;
  let lastPartAt = 0;
  const expire = (failure: Failure) => {
    timeout = failure;
    guard.fire(new ModelCallError(failure, { partialText: assembler.partialText }));
  };
  // One timer per attempt: until the first part it is the first-output timeout (C-11); after
  // that it checks for silence longer than the stall timeout, re-arming for the remainder.
  const onTimer = () => {
    if (!started) {
      expire({ kind: 'timeout', code: 'first-output-timeout', message: `no output within ${options.firstOutputTimeoutMs} ms` });
      return;
    }
    const silent = now() - lastPartAt;
    if (silent >= options.stallTimeoutMs)
      expire({ kind: 'stalled', message: `the stream sent nothing for ${options.stallTimeoutMs} ms` });
    else guard.setTimer(options.stallTimeoutMs - silent, onTimer);
  };
  const attemptStartedAt = now();
  guard.setTimer(options.firstOutputTimeoutMs, onTimer);
  const callOptions = {
    get signal() {
      return guard.signal;
    },
  };
  const iterator = model.doStream(request, callOptions)[Symbol.asyncIterator]();
  let completed = false;
  try {
    for (;;) {
      const next = await guard.race(iterator.next());
      if (next.done) break;
      lastPartAt = now();
      if (!started) {
        started = true;
        // The first-output timer, still armed, checks for silence when it fires: it needs moving
        // only if it would fire after the stall bound (a timer per part is a cost of every call).
        const firstOutputFiresIn = options.firstOutputTimeoutMs - (lastPartAt - attemptStartedAt);
        if (firstOutputFiresIn > options.stallTimeoutMs) guard.setTimer(options.stallTimeoutMs, onTimer);
      }
      assembler.push(next.value);
    }
    completed = true;
    return assembler.finish();
  } catch (error) {
    if (options.signal.aborted) throw (options.callSignal?.aborted ? options.callSignal : options.signal).reason;
    if (timeout) throw new ModelCallError(timeout, { partialText: assembler.partialText });
    if (ModelCallError.isInstance(error)) {
      if (error.partialText !== undefined || assembler.partialText === '') throw error;
      throw new ModelCallError(error.failure, { cause: error, partialText: assembler.partialText });
    }
    throw new ModelCallError(failureFromUnexpected(error), { cause: error, partialText: assembler.partialText });
  } finally {
    guard.dispose();
    // Tell an adapter still sending (a failed attempt) to stop; a finished stream needs nothing.
    if (!completed) {
      guard.fire(ATTEMPT_ABANDONED);
      void Promise.resolve(iterator.return?.()).catch(() => {});
    }
  }
}

function failureFromUnexpected(error: unknown): Failure {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const failure: Failure = { kind: 'connection', message };
  if (typeof code === 'string') failure.code = code;
  if (error instanceof Error) failure.errorName = error.name;
  return failure;
}
