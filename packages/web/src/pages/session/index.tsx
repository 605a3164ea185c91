import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { useApp } from '../../runs/index.js';
import { HistoryTurn } from './history-turn.js';

/**
 * One session's history (P-9): every question (run) oldest first with its input, its supplements
 * (consumed, or carried over to the next question), its outcome, and unfinished runs marked —
 * the raw record `GET /sessions/:id/history` answers. Refreshed while a run is unfinished.
 */
export function SessionPage() {
  const { spaceId = '', appId = '', sessionId = '' } = useParams();
  const app = useApp(appId);
  const t = useT();
  const history = useQuery({
    queryKey: queryKeys.sessionHistory(sessionId),
    queryFn: () => unwrap(api.GET('/sessions/{sessionId}/history', { params: { path: { sessionId } } })),
    refetchInterval: (query) => (query.state.data?.runs.some((run) => run.outcome === null) ? 1000 : false),
  });
  const base = `/spaces/${spaceId}/agents/${appId}`;
  const runs = history.data?.runs ?? [];
  const running = runs.filter((run) => run.unfinished).length;
  const unanswered = runs.filter((run) => run.outcome && run.outcome.status !== 'succeeded').length;
  return (
    <>
      <PageHeader title={t('session.title', { id: sessionId })}>
        {app.data ? <span className="badge badge-muted">{app.data.app.name}</span> : null}
        <Link to={`${base}/chat?session=${sessionId}`}>{t('session.continue')}</Link>
        <Link to={`${base}/sessions`}>{t('session.all')}</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? history.error} title={t('session.readFailed')} />
      {history.data ? <p>{t('session.summary', { count: runs.length, running, unanswered })}</p> : null}
      <div className="transcript">
        {runs.map((run) => (
          <HistoryTurn key={run.runId} run={run} runLink={`${base}/runs/${run.runId}`} />
        ))}
      </div>
    </>
  );
}
