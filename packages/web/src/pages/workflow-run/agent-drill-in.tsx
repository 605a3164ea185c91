import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { isTerminal, type RunDescriptionView, RunStatusBadge } from '../../runs/index.js';
import { OperationsTable } from '../run-view/detail-tables.js';
import { LoopsByRole, TaskTree } from '../run-view/task-tree.js';

/**
 * Drills into an agent node of a workflow run: the inner agent run of task `taskId`, read
 * through its workflow run (`GET /runs/:id/agent-view?taskId=`, NOT-24) — its tasks and loops,
 * its tool calls (and delegations) with their attempts, and its answer. Refreshed every second
 * while the inner run goes on.
 */
export function AgentDrillIn({ runId, taskId, node }: { runId: string; taskId: string; node: string }) {
  const t = useT();
  const view = useQuery({
    queryKey: queryKeys.agentView(runId, taskId),
    queryFn: async () =>
      (await unwrap(api.GET('/runs/{runId}/agent-view', { params: { path: { runId }, query: { taskId } } })))
        .view as unknown as RunDescriptionView,
    refetchInterval: (query) => (query.state.data && isTerminal(query.state.data.status) ? false : 1000),
  });
  const data = view.data;
  return (
    <section className="card" aria-labelledby="agent-drill-in">
      <h2 id="agent-drill-in">
        <FormattedMessage id="workflowRun.agent.heading" values={{ node, taskId, code: (text) => <code>{text}</code> }} />
      </h2>
      <ProblemAlert problem={view.error} title={t('workflowRun.agent.readFailed')} />
      {data ? (
        <>
          <dl className="facts">
            <dt>{t('workflowRun.agent.status')}</dt>
            <dd>
              <RunStatusBadge status={data.status} />
            </dd>
            <dt>{t('workflowRun.agent.agent')}</dt>
            <dd>
              {t('workflowRun.agent.mode', {
                name: data.name,
                mode: data.agent?.mode === 'plan-executor' ? 'plan' : 'react',
              })}
            </dd>
            <dt>{t('workflowRun.agent.loops')}</dt>
            <dd>{data.loops}</dd>
          </dl>
          {data.agent ? (
            <>
              <LoopsByRole tasks={data.agent.tasks} total={data.loops} />
              <TaskTree tasks={data.agent.tasks} />
              <OperationsTable operations={data.agent.operations} tasks={data.agent.tasks} />
            </>
          ) : (
            <p>{t('workflowRun.agent.notStarted')}</p>
          )}
          <h3>{t('workflowRun.agent.answer')}</h3>
          {data.status === 'succeeded' ? (
            <p className="pre-wrap">{data.result?.output}</p>
          ) : (
            <p>{t('workflowRun.agent.noAnswer')}</p>
          )}
        </>
      ) : (
        <p>{t('workflowRun.agent.loading')}</p>
      )}
    </section>
  );
}
