import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { useApp } from '../../runs/index.js';

/** An app's sessions (conversations), most recently active first (P-9). */
export function SessionsPage() {
  const { spaceId = '', appId = '' } = useParams();
  const app = useApp(appId);
  const sessions = useQuery({
    queryKey: queryKeys.sessions(appId),
    queryFn: () => unwrap(api.GET('/apps/{appId}/sessions', { params: { path: { appId }, query: { limit: 100 } } })),
  });
  const base = `/spaces/${spaceId}/agents/${appId}`;
  return (
    <>
      <PageHeader title={`Sessions${app.data ? ` of ${app.data.app.name}` : ''}`}>
        <Link to={`${base}/chat`}>New chat</Link>
        <Link to={`${base}/runs`}>Run log</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? sessions.error} title="The sessions could not be read." />
      <table className="table">
        <caption className="visually-hidden">Sessions, most recently active first</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Started by</th>
            <th scope="col">Started</th>
            <th scope="col">Last question</th>
            <th scope="col">Chat</th>
          </tr>
        </thead>
        <tbody>
          {sessions.data?.sessions.map((session) => (
            <tr key={session.id}>
              <td>
                <Link to={`${base}/sessions/${session.id}`}>{session.id}</Link>
              </td>
              <td>{session.createdBy}</td>
              <td>{new Date(session.createdAt).toLocaleString()}</td>
              <td>{new Date(session.lastRunAt).toLocaleString()}</td>
              <td>
                <Link to={`${base}/chat?session=${session.id}`} aria-label={`Continue session ${session.id} in the chat`}>
                  Continue
                </Link>
              </td>
            </tr>
          ))}
          {sessions.data?.sessions.length === 0 ? (
            <tr>
              <td colSpan={5}>No session yet: ask the agent something in the chat.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </>
  );
}
