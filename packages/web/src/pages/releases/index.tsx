import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { queries } from '../../api/index.js';
import { DataTable, PageShell } from '../../components/index.js';

/** The immutable releases of an agent or a workflow, newest first (P-6). */
export function ReleasesPage() {
  const { appId = '' } = useParams();
  // The editor this page belongs to: the agent or workflow editor at the path without `/releases`.
  const editorPath = useLocation().pathname.replace(/\/releases\/?$/, '');
  const app = useQuery(queries.app(appId));
  const releases = useQuery(queries.releases(appId));
  return (
    <PageShell
      title={`Releases${app.data ? ` of ${app.data.app.name}` : ''}`}
      actions={<Link to={editorPath}>Back to the editor</Link>}
      problem={app.error ?? releases.error}
    >
      <DataTable
        caption="Releases, newest first"
        columns={[
          { header: 'Version', cell: (release) => `v${release.version}` },
          { header: 'Published', cell: (release) => new Date(release.publishedAt).toLocaleString() },
          { header: 'By', cell: (release) => release.publishedBy },
          { header: 'Notes', cell: (release) => release.notes || '—' },
          { header: 'Content hash', cell: (release) => <code>{release.contentHash.slice(0, 12)}</code> },
        ]}
        rows={releases.data?.releases}
        rowKey={(release) => release.id}
        empty="Nothing published yet."
      />
    </PageShell>
  );
}
