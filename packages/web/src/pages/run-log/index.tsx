import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/index.js';
import { CheckboxField, DataTable, PageShell, SelectField } from '../../components/index.js';
import { type MessageId, useFormatDateTime, useT } from '../../i18n/index.js';
import { endingInWords, fetchRunLog, RunStatusBadge, useApp } from '../../runs/index.js';

const statusFilters: readonly { value: string; label: MessageId }[] = [
  { value: '', label: 'runLog.filter.all' },
  { value: 'pending', label: 'runLog.filter.pending' },
  { value: 'running', label: 'runLog.filter.running' },
  { value: 'succeeded', label: 'runLog.filter.succeeded' },
  { value: 'failed', label: 'runLog.filter.failed' },
  { value: 'stopped', label: 'runLog.filter.stopped' },
];

/**
 * An app's run log, newest first, filtered by status (kept in the URL), each run linking to its
 * view. Debug runs of the draft (the editor's debug mode) are hidden unless the box is ticked
 * (`?debug=include`); when shown, each is marked.
 */
export function RunLogPage() {
  const { spaceId = '', appId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const t = useT();
  const formatDateTime = useFormatDateTime();
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
      title={app.data ? t('runLog.titleOf', { name: app.data.app.name }) : t('runLog.title')}
      actions={
        <>
          <Link to={`${base}/chat`}>{t('runLog.chat')}</Link>
          <Link to={`${base}/sessions`}>{t('chat.sessions')}</Link>
        </>
      }
      problem={app.error ?? log.error}
      problemTitle={t('runLog.readFailed')}
    >
      <div className="toolbar">
        <SelectField label={t('runLog.status')} value={status} onChange={(event) => setFilter('status', event.target.value)}>
          {statusFilters.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {t(filter.label)}
            </option>
          ))}
        </SelectField>
        <CheckboxField
          label={t('runLog.showDebug')}
          checked={withDebugRuns}
          onChange={(event) => setFilter('debug', event.target.checked ? 'include' : '')}
        />
      </div>
      <DataTable
        caption={t('runLog.caption')}
        columns={[
          {
            key: 'run',
            header: t('runLog.run'),
            cell: (run) => (
              <>
                <Link to={`${base}/runs/${run.id}`}>{run.id}</Link>
                {run.debug ? (
                  <>
                    {' '}
                    <span className="badge badge-muted">{t('runLog.debugRun')}</span>
                  </>
                ) : null}
              </>
            ),
          },
          { key: 'status', header: t('runLog.status'), cell: (run) => <RunStatusBadge status={run.status} /> },
          {
            key: 'ending',
            header: t('runLog.howEnded'),
            cell: (run) => endingInWords(t, run.status, run.reason) ?? t('common.notYet'),
          },
          { key: 'loops', header: t('runLog.loops'), cell: (run) => run.loops },
          {
            key: 'session',
            header: t('runLog.session'),
            cell: (run) => <Link to={`${base}/sessions/${run.sessionId}`}>{run.sessionId}</Link>,
          },
          { key: 'started', header: t('runLog.started'), cell: (run) => formatDateTime(run.createdAt) },
        ]}
        rows={log.isSuccess ? runs : undefined}
        rowKey={(run) => run.id}
        empty={status ? t('runLog.emptyFiltered') : t('runLog.empty')}
      />
      {log.hasNextPage ? (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {t('runLog.older')}
        </button>
      ) : null}
    </PageShell>
  );
}
