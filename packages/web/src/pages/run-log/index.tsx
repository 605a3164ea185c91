import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/index.js';
import { CheckboxField, DataTable, PageShell, SelectField } from '../../components/index.js';
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
    <PageShell
      title={`Run log${app.data ? ` of ${app.data.app.name}` : ''}`}
      actions={
        <>
          <Link to={`${base}/chat`}>Chat</Link>
          <Link to={`${base}/sessions`}>Sessions</Link>
        </>
      }
      problem={app.error ?? log.error}
      problemTitle="The run log could not be read."
    >
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
      <DataTable
        caption="Runs, newest first"
        columns={[
          {
            header: 'Run',
            cell: (run) => (
              <>
                <Link to={`${base}/runs/${run.id}`}>{run.id}</Link>
                {run.debug ? (
                  <>
                    {' '}
                    <span className="badge badge-muted">debug run of the draft</span>
                  </>
                ) : null}
              </>
            ),
          },
          { header: 'Status', cell: (run) => <RunStatusBadge status={run.status} /> },
          { header: 'How it ended', cell: (run) => endingInWords(run.status, run.reason) ?? 'not yet' },
          { header: 'Loops', cell: (run) => run.loops },
          { header: 'Session', cell: (run) => <Link to={`${base}/sessions/${run.sessionId}`}>{run.sessionId}</Link> },
          { header: 'Started', cell: (run) => new Date(run.createdAt).toLocaleString() },
        ]}
        rows={log.isSuccess ? runs : undefined}
        rowKey={(run) => run.id}
        empty={status ? 'No run with this status.' : 'No run yet.'}
      />
      {log.hasNextPage ? (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Older runs
        </button>
      ) : null}
    </PageShell>
  );
}
