import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, queryKeys, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
import type { ApprovalView } from './run-types.js';

/**
 * Approvals of a run (K-5, P-14.1): a waiting one is asked in place with Approve / Deny; a decided
 * one says who decided what. The first decision wins on the server; a late one shows its refusal.
 */
export function ApprovalRequests({
  runId,
  approvals,
  canDecide,
}: {
  runId: string;
  approvals: ApprovalView[];
  canDecide: boolean;
}) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: ({ approvalId, approved }: { approvalId: string; approved: boolean }) =>
      unwrap(api.POST('/runs/{runId}/approvals/{approvalId}', { params: { path: { runId, approvalId } }, body: { approved } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.runView(runId) }),
  });
  if (approvals.length === 0) return null;
  return (
    <section className="approvals" aria-label="Approvals">
      {approvals.map((approval) => (
        <div key={approval.approvalId} className={approval.decision ? 'approval' : 'approval approval-waiting'}>
          <p>
            <strong>{approval.decision ? 'Approval' : 'Approval needed'}:</strong> the agent wants to call{' '}
            <code>{approval.toolName}</code> with <code>{JSON.stringify(approval.arguments)}</code>. {approval.reason}
          </p>
          {approval.decision ? (
            <p>
              {approval.decision.approved ? 'Approved' : 'Denied'} by {approval.decision.decidedBy}
              {approval.decision.reason ? ` (${approval.decision.reason})` : ''}.
            </p>
          ) : canDecide ? (
            <div className="button-row">
              <button
                type="button"
                className="button-primary"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ approvalId: approval.approvalId, approved: true })}
              >
                Approve
              </button>
              <button
                type="button"
                className="button-danger"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ approvalId: approval.approvalId, approved: false })}
              >
                Deny
              </button>
            </div>
          ) : (
            <p>Waiting for a decision.</p>
          )}
        </div>
      ))}
      <ProblemAlert problem={decide.error} title="The decision was not recorded." />
    </section>
  );
}
