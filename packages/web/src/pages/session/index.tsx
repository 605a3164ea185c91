import { Link, useParams } from 'react-router';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { RunTurn, useApp, useSession } from '../../runs/index.js';

/**
 * One session's history: every question (run) in order with its input, its supplements (consumed,
 * or carried over to the next question), its outcome, and unfinished runs marked (P-9, P-8.6).
 */
export function SessionPage() {
  const { spaceId = '', appId = '', sessionId = '' } = useParams();
  const app = useApp(appId);
  const session = useSession(sessionId);
  const base = `/spaces/${spaceId}/agents/${appId}`;
  const runs = session.data?.runs ?? [];
  const unfinished = runs.filter((run) => run.status !== 'succeeded').length;
  return (
    <>
      <PageHeader title={`Session ${sessionId}`}>
        {app.data ? <span className="badge badge-muted">{app.data.app.name}</span> : null}
        <Link to={`${base}/chat?session=${sessionId}`}>Continue in the chat</Link>
        <Link to={`${base}/sessions`}>All sessions</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? session.error} title="The session could not be read." />
      {session.data ? (
        <p>
          {runs.length} question{runs.length === 1 ? '' : 's'}
          {unfinished > 0 ? `, ${unfinished} of them unfinished (still running, stopped or failed)` : ''}. Started by{' '}
          {session.data.session.createdBy} on {new Date(session.data.session.createdAt).toLocaleString()}.
        </p>
      ) : null}
      <div className="transcript">
        {runs.map((run) => (
          <RunTurn key={run.id} runId={run.id} runLink={`${base}/runs/${run.id}`} />
        ))}
      </div>
    </>
  );
}
