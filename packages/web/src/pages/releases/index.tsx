import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { queries } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';

/** The immutable releases of an agent or a workflow, newest first (P-6). */
export function ReleasesPage() {
  const { appId = '' } = useParams();
  // The editor this page belongs to: the agent or workflow editor at the path without `/releases`.
  const editorPath = useLocation().pathname.replace(/\/releases\/?$/, '');
  const app = useQuery(queries.app(appId));
  const releases = useQuery(queries.releases(appId));
  return (
    <>
      <PageHeader title={`Releases${app.data ? ` of ${app.data.app.name}` : ''}`}>
        <Link to={editorPath}>Back to the editor</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? releases.error} />
      <table className="table">
        <caption className="visually-hidden">Releases, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Published</th>
            <th scope="col">By</th>
            <th scope="col">Notes</th>
            <th scope="col">Content hash</th>
          </tr>
        </thead>
        <tbody>
          {releases.data?.releases.map((release) => (
            <tr key={release.id}>
              <td>v{release.version}</td>
              <td>{new Date(release.publishedAt).toLocaleString()}</td>
              <td>{release.publishedBy}</td>
              <td>{release.notes || '—'}</td>
              <td>
                <code>{release.contentHash.slice(0, 12)}</code>
              </td>
            </tr>
          ))}
          {releases.data?.releases.length === 0 ? (
            <tr>
              <td colSpan={5}>Nothing published yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </>
  );
}
