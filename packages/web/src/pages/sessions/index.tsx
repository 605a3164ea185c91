import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { DataTable, PageShell } from '../../components/index.js';
import { useFormatDateTime, useT } from '../../i18n/index.js';
import { useApp } from '../../runs/index.js';

/** An app's sessions (conversations), most recently active first (P-9). */
export function SessionsPage() {
  const { spaceId = '', appId = '' } = useParams();
  const app = useApp(appId);
  const t = useT();
  const formatDateTime = useFormatDateTime();
  const sessions = useQuery({
    queryKey: queryKeys.sessions(appId),
    queryFn: () => unwrap(api.GET('/apps/{appId}/sessions', { params: { path: { appId }, query: { limit: 100 } } })),
  });
  const base = `/spaces/${spaceId}/agents/${appId}`;
  return (
    <PageShell
      title={app.data ? t('sessions.titleOf', { name: app.data.app.name }) : t('sessions.title')}
      actions={
        <>
          <Link to={`${base}/chat`}>{t('sessions.newChat')}</Link>
          <Link to={`${base}/runs`}>{t('chat.runLog')}</Link>
        </>
      }
      problem={app.error ?? sessions.error}
      problemTitle={t('sessions.readFailed')}
    >
      <DataTable
        caption={t('sessions.caption')}
        columns={[
          {
            key: 'session',
            header: t('sessions.session'),
            cell: (session) => <Link to={`${base}/sessions/${session.id}`}>{session.id}</Link>,
          },
          { key: 'by', header: t('sessions.startedBy'), cell: (session) => session.createdBy },
          { key: 'started', header: t('sessions.started'), cell: (session) => formatDateTime(session.createdAt) },
          { key: 'last', header: t('sessions.lastQuestion'), cell: (session) => formatDateTime(session.lastRunAt) },
          {
            key: 'chat',
            header: t('sessions.chat'),
            cell: (session) => (
              <Link to={`${base}/chat?session=${session.id}`} aria-label={t('sessions.continueLabel', { id: session.id })}>
                {t('sessions.continue')}
              </Link>
            ),
          },
        ]}
        rows={sessions.data?.sessions}
        rowKey={(session) => session.id}
        empty={t('sessions.empty')}
      />
    </PageShell>
  );
}
