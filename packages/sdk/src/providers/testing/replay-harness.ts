import type { CallModelOptions, ModelAttemptFailure } from '../../model/call-model.js';

/** `callModel` options for replay tests; timeouts are generous unless a test shortens them. */
export function replayCallOptions(overrides: Partial<CallModelOptions> = {}): CallModelOptions {
  return {
    signal: new AbortController().signal,
    deadlineAt: Date.now() + 60_000,
    firstOutputTimeoutMs: 5_000,
    stallTimeoutMs: 5_000,
    retry: { enabled: false, attempts: 1, waitMs: 10 },
    ...overrides,
  };
}

/** Collects the attempt failures `callModel` reports, for assertions on what each attempt recorded. */
export function recordAttemptFailures(): {
  failures: ModelAttemptFailure[];
  onAttemptFailed: (report: ModelAttemptFailure) => void;
} {
  const failures: ModelAttemptFailure[] = [];
  return { failures, onAttemptFailed: (report) => void failures.push(report) };
}

/** Runs `body` and returns what it threw; fails when it did not throw. */
export async function caught(body: () => Promise<unknown>): Promise<unknown> {
  try {
    await body();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The JSON body of request number `index` a replay server received; fails when there is none. */
export function sentBody(requests: readonly { body: unknown }[], index: number): Record<string, unknown> {
  const body = requests[index]?.body;
  if (typeof body !== 'object' || body === null) throw new Error(`no JSON request number ${index + 1} was received`);
  return body as Record<string, unknown>;
}
