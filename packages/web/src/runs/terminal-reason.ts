/**
 * The terminal reasons in words (P-8.11): each SDK reason keeps its own sentence, so a user stop,
 * a timeout, an exhausted loop budget, a model failure, a compression failure and an over-window
 * end never read alike.
 */
const reasonWords: Record<string, string> = {
  'user-stop': 'Stopped: someone ended the run.',
  'run-timeout': 'Ended: the run reached its time limit.',
  'loop-budget-exhausted': 'Ended: the loop budget was used up before an answer.',
  'invalid-tool-calls': 'Failed: the model kept making invalid tool calls.',
  'model-failed': 'Failed: the model call failed for good (after its retries).',
  'compression-failed': 'Failed: compressing the conversation failed.',
  'over-window-after-compression': 'Failed: the conversation is too long for the model, even after compression.',
  blocked: 'Blocked: a hook or guardrail refused the input or the answer.',
  'node-failed': 'Failed: a workflow step failed.',
  'step-limit-exceeded': 'Ended: the workflow reached its step limit.',
  'write-conflict': 'Failed: two workflow steps wrote the same value.',
  'loop-limit-reached': 'Ended: a workflow loop reached its limit.',
};

/** Who asked for a stop, in words (the platform's `stopCause`). */
const stopCauseWords: Record<string, string> = {
  user: 'a user pressed End',
  'release-published': 'a new release was published',
  'app-deleted': 'the agent is being deleted',
};

/** The sentence that says how a run ended, or undefined while it has not. */
export function endingInWords(status: string, reason?: string | null, stopCause?: string | null): string | undefined {
  if (status === 'succeeded') return 'Finished: the agent answered.';
  if (status !== 'failed' && status !== 'stopped') return undefined;
  if (reason === 'user-stop' && stopCause) return `Stopped: ${stopCauseWords[stopCause] ?? stopCause}.`;
  if (reason && reasonWords[reason]) return reasonWords[reason];
  return status === 'stopped' ? 'Stopped.' : `Failed${reason ? ` (${reason})` : ''}.`;
}

/** A short label for a status badge. */
export function statusLabel(status: string): string {
  if (status === 'pending') return 'queued';
  return status;
}
