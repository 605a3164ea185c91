import { InvalidRunRequestError } from '../../../core/errors/index.js';
import type { RunVariant } from '../agent-journal.js';
import type { SessionRunSummary } from './session-runs.js';

/**
 * The runs of a session that a later variant replaced (N-15): every `replaces` of a regenerated
 * run. They stay in the session's record (nothing is deleted) but leave the history later runs
 * see, so the conversation continues from the newest variant of each group.
 */
export function replacedRuns(runs: readonly SessionRunSummary[]): Set<string> {
  return new Set(runs.flatMap((run) => (run.variant ? [run.variant.replaces] : [])));
}

/**
 * The variant a new run that regenerates `replaces` belongs to, and the input it asks again
 * (N-15). Only the newest run of the session may be regenerated, once it has finished: an older
 * answer is followed by turns that were built on it. The group is the replaced run's group, or
 * the replaced run itself when it was the first answer.
 */
export function regenerationOf(
  runId: string,
  runs: readonly SessionRunSummary[],
  replaces: string,
): { variant: RunVariant; input: string } {
  const target = runs.find((run) => run.runId === replaces);
  if (!target)
    throw new InvalidRunRequestError(runId, `Run ${replaces} is not an agent run of this session; it cannot be regenerated.`);
  if (target.status === 'running') {
    throw new InvalidRunRequestError(runId, `Run ${replaces} has not finished; only a finished answer can be regenerated.`);
  }
  if (runs.at(-1)?.runId !== replaces) {
    throw new InvalidRunRequestError(
      runId,
      `Run ${replaces} is not the newest run of its session; only the newest answer can be regenerated.`,
    );
  }
  return { variant: { group: target.variant?.group ?? target.runId, replaces }, input: target.input };
}
