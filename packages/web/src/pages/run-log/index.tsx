import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/index.js';
import { CheckboxField, PageHeader, ProblemAlert, SelectField } from '../../components/index.js';
import { endingInWords, fetchRunLog, RunStatusBadge, useApp } from '../../runs/index.js';

const statusFilters = [
  { value: '', label: 'All runs' },
  { value: 'pending', label: 'Queued' },
  { value: 'running', label: 'Running' },
  { value: 'succeeded', label: 'Succeeded' },
  { value: 'failed', label: 'Failed' },
  { value: 'stopped', label: 'Stopped' },
];

/**
 * An app's run log, newest first, filtered by status (kept in the URL), each run linking to its
 * view. Debug runs of the draft (the editor's debug mode) are hidden unless the box is ticked
 * (`?debug=include`); when shown, each is marked.
 */
export function RunLogPage() {
  const { spaceId = '', appId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const status = search.get('status') ?? '';
  const withDebugRuns = search.get('debug') === 'include';
  const setFilter = (name: 'status' | 'debug', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };
  const app = useApp(appId);
  const log = useInfiniteQuery({
    queryKey: queryKeys.runLog(appId, status, withDebugRuns),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchRunLog(appId, status, pageParam, withDebugRuns),
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: 3000,
  });
  const runs = log.data?.pages.flatMap((page) => page.runs) ?? [];
  const base = `/spaces/${spaceId}/agents/${appId}`;
  return (
    <>
      <PageHeader title={`Run log${app.data ? ` of ${app.data.app.name}` : ''}`}>
        <Link to={`${base}/chat`}>Chat</Link>
        <Link to={`${base}/sessions`}>Sessions</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? log.error} title="The run log could not be read." />
      <div className="toolbar">
        <SelectField label="Status" value={status} onChange={(event) => setFilter('status', event.target.value)}>
          {statusFilters.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </SelectField>
        <CheckboxField
          label="Show debug runs of the draft"
          checked={withDebugRuns}
          onChange={(event) => setFilter('debug', event.target.checked ? 'include' : '')}
        />
      </div>
      <table className="table">
        <caption className="visually-hidden">Runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">How it ended</th>
            <th scope="col">Loops</th>
            <th scope="col">Session</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>
                <Link to={`${base}/runs/${run.id}`}>{run.id}</Link>
                {run.debug ? (
                  <>
                    {' '}
                    <span className="badge badge-muted">debug run of the draft</span>
                  </>
                ) : null}
              </td>
              <td>
                <RunStatusBadge status={run.status} />
              </td>
              <td>{endingInWords(run.status, run.reason) ?? 'not yet'}</td>
              <td>{run.loops}</td>
              <td>
                <Link to={`${base}/sessions/${run.sessionId}`}>{run.sessionId}</Link>
              </td>
              <td>{new Date(run.createdAt).toLocaleString()}</td>
            </tr>
          ))}
          {log.isSuccess && runs.length === 0 ? (
            <tr>
              <td colSpan={6}>{status ? 'No run with this status.' : 'No run yet.'}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {log.hasNextPage ? (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Older runs
        </button>
      ) : null}
    </>
  );
}
