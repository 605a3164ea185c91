import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { DataTable, PageShell } from '../../components/index.js';
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
    <PageShell
      title={`Sessions${app.data ? ` of ${app.data.app.name}` : ''}`}
      actions={
        <>
          <Link to={`${base}/chat`}>New chat</Link>
          <Link to={`${base}/runs`}>Run log</Link>
        </>
      }
      problem={app.error ?? sessions.error}
      problemTitle="The sessions could not be read."
    >
      <DataTable
        caption="Sessions, most recently active first"
        columns={[
          { header: 'Session', cell: (session) => <Link to={`${base}/sessions/${session.id}`}>{session.id}</Link> },
          { header: 'Started by', cell: (session) => session.createdBy },
          { header: 'Started', cell: (session) => new Date(session.createdAt).toLocaleString() },
          { header: 'Last question', cell: (session) => new Date(session.lastRunAt).toLocaleString() },
          {
            header: 'Chat',
            cell: (session) => (
              <Link to={`${base}/chat?session=${session.id}`} aria-label={`Continue session ${session.id} in the chat`}>
                Continue
              </Link>
            ),
          },
        ]}
        rows={sessions.data?.sessions}
        rowKey={(session) => session.id}
        empty="No session yet: ask the agent something in the chat."
      />
    </PageShell>
  );
}
