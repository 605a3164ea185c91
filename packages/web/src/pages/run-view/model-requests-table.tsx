import { DataTable } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { type AgentRunEvent, type TaskView, useRunStream } from '../../runs/index.js';

type Finish = Extract<AgentRunEvent, { type: 'model-call-finish' }>;

/** One model request as the table shows it: its event and whether its prefix hash differs from the task's previous one. */
interface RequestRow {
  event: Finish;
  prefixChanged: boolean;
}

/** Marks each request whose system-prefix hash differs from the previous request of the same task (a cache miss). */
export function requestRows(events: readonly AgentRunEvent[]): RequestRow[] {
  const previous = new Map<string, string>();
  const rows: RequestRow[] = [];
  for (const event of events) {
    if (event.type !== 'model-call-finish') continue;
    const hash = event.context?.prefixHash;
    const before = previous.get(event.taskId);
    rows.push({ event, prefixChanged: hash !== undefined && before !== undefined && before !== hash });
    if (hash !== undefined) previous.set(event.taskId, hash);
  }
  return rows;
}

/**
 * The run's model requests (N-15): for each, the estimated tokens of its parts (system prompt,
 * tools, history, context entries, the user's instructions, the session note) and the hash of its
 * system prefix; a hash that changed within a task is marked, since the provider's cache of the
 * prefix could not be reused. Read from the run's event stream (its journal).
 */
export function ModelRequestsTable({ runId, tasks }: { runId: string; tasks: TaskView[] }) {
  const t = useT();
  const stream = useRunStream(runId, 'agent');
  const rows = requestRows(stream.events);
  const roleOf = (taskId: string) => tasks.find((task) => task.taskId === taskId)?.role ?? taskId;
  const size = (row: RequestRow, part: keyof NonNullable<Finish['context']>['sections']) =>
    row.event.context ? row.event.context.sections[part] : '—';
  return (
    <section className="card" aria-labelledby="run-requests">
      <h2 id="run-requests">{t('requests.heading')}</h2>
      {rows.length === 0 ? (
        <p>{t('requests.none')}</p>
      ) : (
        <DataTable
          caption={t('requests.caption')}
          showCaption
          columns={[
            {
              key: 'request',
              header: t('requests.request'),
              cell: (row) => t('details.roleLoopValue', { role: roleOf(row.event.taskId), loop: row.event.loop }),
            },
            {
              key: 'model',
              header: t('requests.model'),
              cell: (row) => row.event.model?.modelId ?? row.event.response?.modelId ?? '—',
            },
            { key: 'system', header: t('requests.system'), cell: (row) => size(row, 'system') },
            { key: 'tools', header: t('requests.tools'), cell: (row) => size(row, 'tools') },
            { key: 'history', header: t('requests.history'), cell: (row) => size(row, 'history') },
            { key: 'entries', header: t('requests.entries'), cell: (row) => size(row, 'entries') },
            { key: 'instructions', header: t('requests.instructions'), cell: (row) => size(row, 'instructions') },
            { key: 'note', header: t('requests.note'), cell: (row) => size(row, 'note') },
            {
              key: 'prefix',
              header: t('requests.prefix'),
              cell: (row) =>
                row.event.context ? (
                  <>
                    <code>{row.event.context.prefixHash}</code>
                    {row.prefixChanged ? <span className="badge badge-warn"> {t('requests.prefixChanged')}</span> : null}
                  </>
                ) : (
                  t('requests.notRecorded')
                ),
            },
          ]}
          rows={rows}
          rowKey={(row) => `${row.event.sequence}`}
          rowClassName={(row) => (row.prefixChanged ? 'row-warn' : undefined)}
        />
      )}
    </section>
  );
}
