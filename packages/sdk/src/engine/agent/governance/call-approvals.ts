import { subscribeToAbort } from '../../../core/abort-subscription.js';
import { abortableSleep } from '../../../core/abortable-sleep.js';
import type { OperationState } from '../agent-state.js';
import type { CallApprovalState } from '../approval-state.js';
import type { RunContext } from '../run-context.js';

const POLL_MS = 100;

/** The decision on an approval a call asked for. */
export type CallApprovalDecision = NonNullable<CallApprovalState['decided']>;

/**
 * An approval a running call asks for itself (`ToolExecutionContext.requestApproval`; K-5): a
 * remote A2A agent's `INPUT_REQUIRED`, say. Like a gate's approval it is journaled once
 * (`approval-requested`, id `<operationId>#<key>`), told to the approval port, decided by the port
 * or by `RunClient.decideApproval` from any machine, and denied at the approval timeout; the wait
 * is bounded by the run's deadline and stop. Asked again after a crash (the same key), it waits
 * for the same request instead of making a new one; a decision already made is returned at once.
 */
export async function requestCallApproval(
  context: RunContext,
  operationId: string,
  key: string,
  reason: string,
): Promise<CallApprovalDecision> {
  const { durable, governance } = context;
  const approvalId = `${operationId}#${key}`;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  const asked = () => durable.state.callApprovals.get(approvalId);
  const decide = (approved: boolean, decidedBy: string, because?: string) =>
    durable.commit((state) =>
      state.callApprovals.get(approvalId)?.decided
        ? undefined
        : {
            entries: [
              {
                type: 'approval-decided',
                taskId: operation().taskId,
                data: { approvalId, approved, decidedBy, ...(because !== undefined ? { reason: because } : {}) },
              },
            ],
          },
    );
  if (!asked()) {
    await durable.commit(() => ({
      entries: [
        {
          type: 'approval-requested',
          taskId: operation().taskId,
          data: {
            approvalId,
            operationId,
            toolName: operation().call.name,
            arguments: operation().call.arguments,
            reason,
            expiresAt: Math.min(context.now() + governance.approvalTimeoutMs, durable.state.deadlineAt),
          },
        },
      ],
    }));
  }
  if (asked()?.decided) return asked()?.decided as CallApprovalDecision;
  const giveUpAt = asked()?.expiresAt ?? Math.min(context.now() + governance.approvalTimeoutMs, durable.state.deadlineAt);
  const portController = new AbortController();
  const stopSubscription = subscribeToAbort(context.control.signal, (why) => portController.abort(why));
  try {
    if (governance.approvals) {
      const task = durable.state.tasks.get(operation().taskId);
      void Promise.resolve()
        .then(() =>
          governance.approvals?.request(
            {
              approvalId,
              runId: context.runId,
              sessionId: context.sessionId,
              role: task?.role ?? 'unknown',
              taskId: operation().taskId,
              toolName: operation().call.name,
              arguments: operation().call.arguments,
              reason,
            },
            portController.signal,
          ),
        )
        .then((answer) => (answer ? decide(answer.approved, 'approval-port', answer.reason) : undefined))
        .catch(() => {});
    }
    while (!asked()?.decided) {
      context.control.throwIfInterrupted();
      if (context.now() >= giveUpAt) {
        await decide(false, 'timeout', 'no decision before the approval timeout');
        break;
      }
      await abortableSleep(Math.min(POLL_MS, giveUpAt - context.now()), context.control.signal);
      await durable.sync();
    }
  } finally {
    stopSubscription.unsubscribe();
    portController.abort();
  }
  return asked()?.decided as CallApprovalDecision;
}
