import { subscribeToAbort } from '../../../core/abort-subscription.js';
import { abortableSleep } from '../../../core/abortable-sleep.js';
import { runHookChain } from '../../../hooks/run-hook-chain.js';
import type { OperationState } from '../agent-state.js';
import type { RunContext } from '../run-context.js';
import { identityOf } from './hook-identity.js';

const POLL_MS = 100;

/**
 * Obtains the decision on a call whose gate said `ask` (K-5, K-6, N-1). PermissionRequest hooks
 * may decide first; otherwise the request is journaled (durable across crashes), the approval port
 * is told, and the run waits for a decision from the port or from `RunClient.decideApproval` on any machine.
 * The wait never outlives the approval timeout (then: denied), the run deadline or a stop; a
 * decision after the run ended is refused by the store.
 */
export async function ensureApproval(
  context: RunContext,
  operationId: string,
): Promise<NonNullable<NonNullable<OperationState['approval']>['decided']>> {
  const { durable, governance } = context;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  const decide = (approved: boolean, decidedBy: string, reason?: string) =>
    durable.commit((state) =>
      state.operations.get(operationId)?.approval?.decided
        ? undefined
        : {
            entries: [
              {
                type: 'approval-decided',
                taskId: operation().taskId,
                data: { approvalId: operationId, approved, decidedBy, ...(reason !== undefined ? { reason } : {}) },
              },
            ],
          },
    );
  if (!operation().approval?.requested && !operation().approval?.decided) {
    const chain = await runHookChain(
      'PermissionRequest',
      governance.hooks.PermissionRequest,
      { toolName: operation().call.name, arguments: operation().call.arguments, reason: operation().gate?.reason ?? '' },
      identityOf(context, operation().taskId, operationId),
      { toolName: operation().call.name },
    );
    if ((chain.decision === 'allow' || chain.decision === 'deny') && chain.source) {
      await decide(chain.decision === 'allow', `hook:${chain.source}`, chain.reason);
    } else {
      await durable.commit(() => ({
        entries: [
          {
            type: 'approval-requested',
            taskId: operation().taskId,
            data: {
              approvalId: operationId,
              operationId,
              toolName: operation().call.name,
              arguments: operation().call.arguments,
              reason: operation().gate?.reason ?? 'approval required',
              // Fixed now, so that a takeover never restarts the wait (K-5).
              expiresAt: Math.min(context.now() + governance.approvalTimeoutMs, durable.state.deadlineAt),
            },
          },
        ],
      }));
    }
  }
  if (!operation().approval?.decided) await waitForDecision(context, operationId, decide);
  return operation().approval?.decided as NonNullable<NonNullable<OperationState['approval']>['decided']>;
}

async function waitForDecision(
  context: RunContext,
  operationId: string,
  decide: (approved: boolean, decidedBy: string, reason?: string) => Promise<void>,
): Promise<void> {
  const { durable, control, governance } = context;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  const task = durable.state.tasks.get(operation().taskId);
  // Journals written before `expiresAt` was recorded fall back to a wait measured from now.
  const giveUpAt =
    operation().approval?.expiresAt ?? Math.min(context.now() + governance.approvalTimeoutMs, durable.state.deadlineAt);
  const portController = new AbortController();
  const stopSubscription = subscribeToAbort(control.signal, (reason) => portController.abort(reason));
  try {
    if (governance.approvals) {
      void Promise.resolve()
        .then(() =>
          governance.approvals?.request(
            {
              approvalId: operationId,
              runId: context.runId,
              sessionId: context.sessionId,
              role: task?.role ?? 'unknown',
              taskId: operation().taskId,
              toolName: operation().call.name,
              arguments: operation().call.arguments,
              reason: operation().gate?.reason ?? 'approval required',
            },
            portController.signal,
          ),
        )
        .then((answer) => (answer ? decide(answer.approved, 'approval-port', answer.reason) : undefined))
        .catch(() => {});
    }
    while (!operation().approval?.decided) {
      control.throwIfInterrupted();
      if (context.now() >= giveUpAt) {
        await decide(false, 'timeout', 'no decision before the approval timeout');
        break;
      }
      await abortableSleep(Math.min(POLL_MS, giveUpAt - context.now()), control.signal);
      await durable.sync();
    }
  } finally {
    stopSubscription.unsubscribe();
    portController.abort();
  }
}
