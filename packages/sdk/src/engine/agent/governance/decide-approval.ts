import { ApprovalNotFoundError, RunNotActiveError } from '../../../core/errors/index.js';
import { isUnfinished } from '../../../store/acquire-decision.js';
import type { RunStore } from '../../../store/run-store.js';
import { agentJournal } from '../agent-journal.js';

/** A decision on an approval, from a person or a service on any machine. */
export interface ApprovalDecision {
  approvalId: string;
  approved: boolean;
  reason?: string;
  decidedBy?: string;
}

/**
 * Records a decision on a pending approval through the store's external append (K-5), so that it
 * works whichever machine owns the run. Refuses an approval the run never requested
 * (`ApprovalNotFoundError`) and any decision once the run has ended (`RunNotActiveError`); of
 * several decisions the owner applies the first.
 */
export async function recordApprovalDecision(
  store: RunStore,
  runId: string,
  decision: ApprovalDecision,
): Promise<{ runId: string; sequence: number }> {
  const run = await store.getRun(runId);
  if (!run || !isUnfinished(run.status)) throw new RunNotActiveError(runId, run?.status ?? 'unknown');
  const journal = await store.readJournal(runId);
  const requested = journal.find((entry) => {
    const record = agentJournal.recordOf(entry);
    return record.type === 'approval-requested' && record.data.approvalId === decision.approvalId;
  });
  if (!requested) throw new ApprovalNotFoundError(runId, decision.approvalId);
  const { lastSequence } = await store.appendExternal({
    runId,
    entries: [
      {
        type: 'approval-decided',
        ...(requested.taskId !== undefined ? { taskId: requested.taskId } : {}),
        data: {
          approvalId: decision.approvalId,
          approved: decision.approved,
          decidedBy: decision.decidedBy ?? 'user',
          ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
        },
      },
    ],
  });
  return { runId, sequence: lastSequence };
}
