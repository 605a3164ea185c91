import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { queries } from '../../api/index.js';
import { DataTable, PageShell } from '../../components/index.js';
import { useFormatDateTime, useT } from '../../i18n/index.js';
import { useSpaceAccess } from '../../session/index.js';
import { A2aSwitch } from './a2a-switch.js';

/** The immutable releases of an agent or a workflow, newest first (P-6), and its A2A switch. */
export function ReleasesPage() {
  const { appId = '', spaceId } = useParams();
  const access = useSpaceAccess(spaceId);
  const t = useT();
  const formatDateTime = useFormatDateTime();
  // The editor this page belongs to: the agent or workflow editor at the path without `/releases`.
  const editorPath = useLocation().pathname.replace(/\/releases\/?$/, '');
  const app = useQuery(queries.app(appId));
  const releases = useQuery(queries.releases(appId));
  return (
    <PageShell
      title={app.data ? t('releases.titleOf', { name: app.data.app.name }) : t('releases.title')}
      actions={<Link to={editorPath}>{t('releases.back')}</Link>}
      problem={app.error ?? releases.error}
    >
      <DataTable
        caption={t('releases.caption')}
        columns={[
          { key: 'version', header: t('releases.version'), cell: (release) => t('common.version', { version: release.version }) },
          { key: 'published', header: t('releases.published'), cell: (release) => formatDateTime(release.publishedAt) },
          { key: 'by', header: t('releases.by'), cell: (release) => release.publishedBy },
          { key: 'notes', header: t('releases.notes'), cell: (release) => release.notes || '—' },
          { key: 'hash', header: t('releases.hash'), cell: (release) => <code>{release.contentHash.slice(0, 12)}</code> },
        ]}
        rows={releases.data?.releases}
        rowKey={(release) => release.id}
        empty={t('releases.empty')}
      />
      <A2aSwitch appId={appId} canEdit={access.canEdit} />
    </PageShell>
  );
}
