import { Link, useParams } from 'react-router';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { type Translate, useFormatDateTime, useT } from '../../i18n/index.js';
import {
  ElicitationRequests,
  endingInWords,
  inputText,
  isTerminal,
  PartialOutput,
  RunStatusBadge,
  useRun,
  useRunView,
} from '../../runs/index.js';
import { ApprovalsAndDecisions, CompressionsTable, HookChangesTable, OperationsTable, SupplementsList } from './detail-tables.js';
import { ModelRequestsTable } from './model-requests-table.js';
import { LoopsByRole, TaskTree } from './task-tree.js';

function tokens(t: Translate, usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): string {
  if (!usage) return '—';
  return t('runView.tokens', { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 });
}

/**
 * The run view (P-10): everything `GET /runs/:id/view` says about one run — how it ended in words
 * (P-8.11), the task tree with loops per role and in total, each tool call with its attempts and
 * `unknown` outcomes, approvals and permission decisions, supplements, compressions with
 * their own usage (P-10.4) and the values hooks changed. It refreshes while the run goes on.
 */
export function RunViewPage() {
  const { spaceId = '', appId = '', runId = '' } = useParams();
  const view = useRunView(runId);
  const t = useT();
  const formatDateTime = useFormatDateTime();
  const run = useRun(runId);
  const data = view.data;
  const status = run.data?.status ?? data?.status ?? '';
  const over = isTerminal(status);
  const base = `/spaces/${spaceId}/agents/${appId}`;
  return (
    <>
      <PageHeader title={t('runView.title', { id: runId })}>
        {status ? <RunStatusBadge status={status} /> : null}
        <Link to={`${base}/runs`}>{t('chat.runLog')}</Link>
        {data ? <Link to={`${base}/sessions/${data.sessionId}`}>{t('runLog.session')}</Link> : null}
      </PageHeader>
      <ProblemAlert problem={view.error ?? run.error} title={t('runView.readFailed')} />
      {data ? (
        <>
          <section className="card" aria-labelledby="run-summary">
            <h2 id="run-summary">{t('runView.summary')}</h2>
            <p className="ending">
              {over ? endingInWords(t, status, data.reason ?? data.result?.reason, run.data?.stopCause) : t('runView.stillGoing')}
            </p>
            <dl className="facts">
              <dt>{t('runView.agent')}</dt>
              <dd>
                {t('runView.agentValue', {
                  name: data.name,
                  mode: data.agent?.mode === 'plan-executor' ? 'planExecutor' : 'react',
                })}
              </dd>
              <dt>{t('runView.loops')}</dt>
              <dd>
                {t('runView.loopsValue', { loops: data.loops })}
                {data.agent ? t('runView.budget', { budget: data.agent.maxLoops }) : ''}
              </dd>
              <dt>{t('runView.usage')}</dt>
              <dd>{tokens(t, data.usage)}</dd>
              <dt>{t('runView.started')}</dt>
              <dd>{formatDateTime(data.createdAt)}</dd>
              <dt>{t('runView.input')}</dt>
              <dd className="pre-wrap">{inputText(data.input)}</dd>
            </dl>
            <h3>{t('runView.output')}</h3>
            {status === 'succeeded' ? <p className="pre-wrap">{data.result?.output}</p> : null}
            {over && status !== 'succeeded' ? <PartialOutput view={data} /> : null}
            {!over ? (
              <p>
                <span className="badge badge-warn">{t('turn.unfinished')}</span> {t('runView.noAnswerYet')}
              </p>
            ) : null}
          </section>
          {data.agent ? (
            <>
              <section className="card" aria-labelledby="run-tasks">
                <h2 id="run-tasks">{t('runView.tasks')}</h2>
                <LoopsByRole tasks={data.agent.tasks} total={data.loops} />
                <TaskTree tasks={data.agent.tasks} />
              </section>
              <ModelRequestsTable runId={runId} tasks={data.agent.tasks} />
              <OperationsTable operations={data.agent.operations} tasks={data.agent.tasks} />
              <ApprovalsAndDecisions approvals={data.agent.approvals} operations={data.agent.operations} />
              <ElicitationRequests runId={runId} elicitations={data.agent.elicitations ?? []} canAnswer={!over} />
              <SupplementsList supplements={data.agent.supplements} />
              <CompressionsTable compressions={data.agent.compressions} tasks={data.agent.tasks} />
              <HookChangesTable changes={data.agent.hookChanges} />
            </>
          ) : (
            <p className="alert alert-info">{t('runView.notStarted')}</p>
          )}
        </>
      ) : null}
    </>
  );
}
