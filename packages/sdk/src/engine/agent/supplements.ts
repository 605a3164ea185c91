import { randomUUID } from 'node:crypto';
import { InvalidRunRequestError, RunNotActiveError } from '../../core/errors/index.js';
import type { RunStore } from '../../store/run-store.js';
import { ENTRY_TASK_ID } from './agent-state.js';

/** Proof that a supplement was recorded in a run (H-2). */
export interface SupplementReceipt {
  runId: string;
  supplementId: string;
}

/**
 * Records a supplement as a user message of an active run, through the store's external append,
 * so that it works whichever machine owns the run (S-1). The owner picks it up before the entry
 * role's next model call; if the run ends first, the next run of the session carries it (S-4).
 */
export async function submitSupplement(
  store: RunStore,
  options: { sessionId: string; runId: string; text: string },
): Promise<SupplementReceipt> {
  if (typeof options.text !== 'string' || options.text.trim() === '') {
    throw new InvalidRunRequestError(options.runId, 'A supplement needs non-empty text.');
  }
  const run = await store.getRun(options.runId);
  if (!run) throw new RunNotActiveError(options.runId, 'unknown');
  if (run.sessionId !== options.sessionId) {
    throw new InvalidRunRequestError(options.runId, `Run ${options.runId} belongs to another session.`);
  }
  const supplementId = `supplement_${randomUUID()}`;
  await store.appendExternal({
    runId: options.runId,
    entries: [{ type: 'supplement-accepted', taskId: ENTRY_TASK_ID, data: { supplementId, text: options.text } }],
  });
  return { runId: options.runId, supplementId };
}
