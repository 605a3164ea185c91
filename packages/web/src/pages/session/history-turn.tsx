import { Link } from 'react-router';
import type { Schema } from '../../api/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { endingInWords, RunStatusBadge } from '../../runs/index.js';

const supplementWords: Record<'pending' | 'consumed' | 'carried-over', MessageId> = {
  pending: 'turn.supplement.accepted',
  consumed: 'turn.supplement.consumed',
  'carried-over': 'turn.supplement.carriedOver',
};

/**
 * One question of a session's raw record (`GET /sessions/:id/history`): its input, the
 * supplements carried in from an earlier run and those it received (consumed, pending or carried
 * over, P-8.6), its outcome in words, and an "Unfinished" mark for a run that is still going
 * (the server's `unfinished`) or ended without a final answer (P-8.10).
 */
export function HistoryTurn({ run, runLink }: { run: Schema<'HistoryRun'>; runLink: string }) {
  const outcome = run.outcome;
  const t = useT();
  return (
    <article className="turn" aria-label={t('turn.question', { text: (run.input ?? '').slice(0, 80) })}>
      <div className="turn-question">
        <p className="turn-who">{t('turn.youAsked')}</p>
        <p className="pre-wrap">{run.input ?? '—'}</p>
      </div>
      {run.carriedIn.length + run.supplements.length > 0 ? (
        <ul className="turn-supplements" aria-label={t('turn.supplements')}>
          {run.carriedIn.map((supplement) => (
            <li key={supplement.supplementId}>
              <span className="badge badge-muted">{t('turn.supplement')}</span>{' '}
              <span className="pre-wrap">{supplement.text}</span> <em className="supplement-status">{t('session.carriedIn')}</em>
            </li>
          ))}
          {run.supplements.map((supplement) => (
            <li key={supplement.supplementId}>
              <span className="badge badge-muted">{t('turn.supplement')}</span>{' '}
              <span className="pre-wrap">{supplement.text}</span>{' '}
              <em className="supplement-status">— {t(supplementWords[supplement.status])}</em>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="turn-answer">
        <p className="turn-who">
          {t('turn.agent')} <RunStatusBadge status={run.status} />{' '}
          {run.unfinished || (outcome && outcome.status !== 'succeeded') ? (
            <span className="badge badge-warn">{t('turn.unfinished')}</span>
          ) : null}{' '}
          <Link to={runLink}>{t('turn.runView')}</Link>
        </p>
        {outcome?.status === 'succeeded' ? <p className="pre-wrap">{outcome.output ?? ''}</p> : null}
        {outcome && outcome.status !== 'succeeded' ? (
          <p>
            <span className="ending">{endingInWords(t, outcome.status, outcome.reason)}</span> {t('session.noFinalAnswer')}
          </p>
        ) : null}
        {!outcome ? <p>{t('session.still', { status: run.status })}</p> : null}
      </div>
    </article>
  );
}
