import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';
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
      <PageHeader title={`Session ${sessionId}`}>
        {app.data ? <span className="badge badge-muted">{app.data.app.name}</span> : null}
        <Link to={`${base}/chat?session=${sessionId}`}>Continue in the chat</Link>
        <Link to={`${base}/sessions`}>All sessions</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? history.error} title="The session could not be read." />
      {history.data ? (
        <p>
          {runs.length} question{runs.length === 1 ? '' : 's'}
          {running > 0 ? `, ${running} still running` : ''}
          {unanswered > 0 ? `, ${unanswered} ended without a final answer` : ''}.
        </p>
      ) : null}
      <div className="transcript">
        {runs.map((run) => (
          <HistoryTurn key={run.runId} run={run} runLink={`${base}/runs/${run.runId}`} />
        ))}
      </div>
    </>
  );
}
