import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { api, queryKeys, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
import { useT } from '../i18n/index.js';
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
  const t = useT();
  const decide = useMutation({
    mutationFn: ({ approvalId, approved }: { approvalId: string; approved: boolean }) =>
      unwrap(api.POST('/runs/{runId}/approvals/{approvalId}', { params: { path: { runId, approvalId } }, body: { approved } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.runView(runId) }),
  });
  if (approvals.length === 0) return null;
  return (
    <section className="approvals" aria-label={t('approval.region')}>
      {approvals.map((approval) => (
        <div key={approval.approvalId} className={approval.decision ? 'approval' : 'approval approval-waiting'}>
          <p>
            <strong>{approval.decision ? t('approval.decided') : t('approval.needed')}:</strong>{' '}
            <FormattedMessage
              id="approval.wants"
              values={{
                tool: () => <code>{approval.toolName}</code>,
                arguments: () => <code>{JSON.stringify(approval.arguments)}</code>,
              }}
            />{' '}
            {approval.reason}
          </p>
          {approval.decision ? (
            <p>
              {t('approval.decision', { approved: approval.decision.approved, who: approval.decision.decidedBy })}
              {approval.decision.reason ? ` (${approval.decision.reason})` : ''}
            </p>
          ) : canDecide ? (
            <div className="button-row">
              <button
                type="button"
                className="button-primary"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ approvalId: approval.approvalId, approved: true })}
              >
                {t('approval.approve')}
              </button>
              <button
                type="button"
                className="button-danger"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ approvalId: approval.approvalId, approved: false })}
              >
                {t('approval.deny')}
              </button>
            </div>
          ) : (
            <p>{t('approval.waiting')}</p>
          )}
        </div>
      ))}
      <ProblemAlert problem={decide.error} title={t('approval.notRecorded')} />
    </section>
  );
}
