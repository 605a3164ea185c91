import { Link } from 'react-router';
import type { Schema } from '../../api/index.js';
import { endingInWords, RunStatusBadge } from '../../runs/index.js';

const supplementWords = {
  pending: 'received, not yet read by the agent',
  consumed: 'consumed by this run',
  'carried-over': 'carried over to the next question',
} as const;

/**
 * One question of a session's raw record (`GET /sessions/:id/history`): its input, the
 * supplements carried in from an earlier run and those it received (consumed, pending or carried
 * over, P-8.6), its outcome in words, and an "Unfinished" mark for a run that is still going
 * (the server's `unfinished`) or ended without a final answer (P-8.10).
 */
export function HistoryTurn({ run, runLink }: { run: Schema<'HistoryRun'>; runLink: string }) {
  const outcome = run.outcome;
  return (
    <article className="turn" aria-label={`Question: ${(run.input ?? '').slice(0, 80)}`}>
      <div className="turn-question">
        <p className="turn-who">You asked</p>
        <p className="pre-wrap">{run.input ?? '—'}</p>
      </div>
      {run.carriedIn.length + run.supplements.length > 0 ? (
        <ul className="turn-supplements" aria-label="Supplements">
          {run.carriedIn.map((supplement) => (
            <li key={supplement.supplementId}>
              <span className="badge badge-muted">supplement</span> <span className="pre-wrap">{supplement.text}</span>{' '}
              <em className="supplement-status">— carried over from an earlier question</em>
            </li>
          ))}
          {run.supplements.map((supplement) => (
            <li key={supplement.supplementId}>
              <span className="badge badge-muted">supplement</span> <span className="pre-wrap">{supplement.text}</span>{' '}
              <em className="supplement-status">— {supplementWords[supplement.status]}</em>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="turn-answer">
        <p className="turn-who">
          Agent <RunStatusBadge status={run.status} />{' '}
          {run.unfinished || (outcome && outcome.status !== 'succeeded') ? (
            <span className="badge badge-warn">Unfinished</span>
          ) : null}{' '}
          <Link to={runLink}>Run view</Link>
        </p>
        {outcome?.status === 'succeeded' ? <p className="pre-wrap">{outcome.output ?? ''}</p> : null}
        {outcome && outcome.status !== 'succeeded' ? (
          <p>
            <span className="ending">{endingInWords(outcome.status, outcome.reason)}</span> No final answer; what it had produced
            is in the run view, marked unfinished.
          </p>
        ) : null}
        {!outcome ? <p>Still {run.status === 'queued' ? 'queued' : 'running'}.</p> : null}
      </div>
    </article>
  );
}
