import { InvalidRunRequestError } from '../../core/errors/index.js';
import { assertIdentifier } from '../../core/ids.js';

/**
 * Checks the identity and limits of a `run()` call before anything happens (issue 18): the
 * session id and a given run id follow the one id rule every store applies (`assertIdentifier`),
 * and limits are real numbers: `maxLoops` a non-negative integer, `deadlineAt` a finite time.
 */
export function assertRunRequestShape(options: {
  sessionId?: unknown;
  runId?: unknown;
  limits?: { maxLoops?: unknown; deadlineAt?: unknown } | undefined;
  regenerate?: { runId?: unknown } | undefined;
  sessionNote?: unknown;
}): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidRunRequestError('(new)', 'run() needs an options object with a sessionId.');
  }
  assertIdentifier('sessionId', options.sessionId);
  if (options.runId !== undefined) assertIdentifier('runId', options.runId);
  const runId = typeof options.runId === 'string' ? options.runId : '(new)';
  // The context features of a run (N-15): the run to regenerate, and the session note.
  if (options.regenerate !== undefined) {
    if (typeof options.regenerate !== 'object' || options.regenerate === null) {
      throw new InvalidRunRequestError(runId, 'regenerate must be an object { runId }.');
    }
    assertIdentifier('regenerate.runId', options.regenerate.runId);
  }
  if (options.sessionNote !== undefined && !(typeof options.sessionNote === 'string' && options.sessionNote.length <= 20_000)) {
    throw new InvalidRunRequestError(runId, 'sessionNote must be text of at most 20,000 characters.');
  }
  const limits = options.limits;
  if (limits === undefined) return;
  if (typeof limits !== 'object' || limits === null) {
    throw new InvalidRunRequestError(runId, 'limits must be an object.');
  }
  const { maxLoops, deadlineAt } = limits;
  if (maxLoops !== undefined && !(typeof maxLoops === 'number' && Number.isInteger(maxLoops) && maxLoops >= 0)) {
    throw new InvalidRunRequestError(runId, `limits.maxLoops must be a non-negative integer, not ${String(maxLoops)}.`);
  }
  if (deadlineAt !== undefined && !(typeof deadlineAt === 'number' && Number.isFinite(deadlineAt))) {
    throw new InvalidRunRequestError(
      runId,
      `limits.deadlineAt must be a finite epoch time in milliseconds, not ${String(deadlineAt)}.`,
    );
  }
}
