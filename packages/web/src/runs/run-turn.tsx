import { Link } from 'react-router';
import { ProblemAlert } from '../components/index.js';
import { type MessageId, useT } from '../i18n/index.js';
import { ApprovalRequests } from './approval-requests.js';
import { ElicitationRequests } from './elicitation-requests.js';
import { PartialOutput } from './partial-output.js';
import { useRunView } from './run-queries.js';
import { RunStatusBadge } from './run-status-badge.js';
import { inputText, isTerminal } from './run-types.js';
import { endingInWords } from './terminal-reason.js';

const supplementWords: Record<'accepted' | 'consumed' | 'carried-over', MessageId> = {
  accepted: 'turn.supplement.accepted',
  consumed: 'turn.supplement.consumed',
  'carried-over': 'turn.supplement.carriedOver',
};

/**
 * One question of a session as the user sees it: the input, each supplement with what became of
 * it (consumed, or carried over to the next question, P-8.6), approvals and MCP servers' questions
 * (ADR 0038) waiting in place, and the
 * outcome: the answer, or the terminal reason in words with any partial output marked
 * unfinished (P-8.10, P-8.11). Used by the chat page and the session page.
 */
export function RunTurn({ runId, runLink, canDecide = false }: { runId: string; runLink: string; canDecide?: boolean }) {
  const view = useRunView(runId);
  const t = useT();
  if (view.error) return <ProblemAlert problem={view.error} title={t('turn.readFailed')} />;
  const data = view.data;
  if (!data) return <p>{t('turn.loading')}</p>;
  const over = isTerminal(data.status);
  const reason = data.reason ?? data.result?.reason;
  const supplements = data.agent?.supplements ?? [];
  return (
    <article className="turn" aria-label={t('turn.question', { text: inputText(data.input).slice(0, 80) })}>
      <div className="turn-question">
        <p className="turn-who">{t('turn.youAsked')}</p>
        <p className="pre-wrap">{inputText(data.input)}</p>
      </div>
      {supplements.length > 0 ? (
        <ul className="turn-supplements" aria-label={t('turn.supplements')}>
          {supplements.map((supplement) => (
            <li key={supplement.supplementId}>
              <span className="badge badge-muted">{t('turn.supplement')}</span>{' '}
              <span className="pre-wrap">{supplement.text}</span>{' '}
              <em className="supplement-status">
                — {supplement.carriedFrom ? t('turn.carriedFrom') : ''}
                {t(supplementWords[supplement.status])}
              </em>
            </li>
          ))}
        </ul>
      ) : null}
      <ApprovalRequests runId={runId} approvals={data.agent?.approvals ?? []} canDecide={canDecide && !over} />
      <ElicitationRequests runId={runId} elicitations={data.agent?.elicitations ?? []} canAnswer={canDecide && !over} />
      <div className="turn-answer">
        <p className="turn-who">
          {t('turn.agent')} <RunStatusBadge status={data.stopRequest && !over ? 'stopping' : data.status} />{' '}
          <Link to={runLink}>{t('turn.runView')}</Link>
        </p>
        {data.status === 'succeeded' ? <p className="pre-wrap">{data.result?.output ?? ''}</p> : null}
        {over && data.status !== 'succeeded' ? (
          <>
            <p className="ending">{endingInWords(t, data.status, reason)}</p>
            <PartialOutput view={data} />
          </>
        ) : null}
        {!over ? (
          <p>
            <span className="badge badge-warn">{t('turn.unfinished')}</span> {t('turn.still', { status: data.status })}
          </p>
        ) : null}
      </div>
    </article>
  );
}
