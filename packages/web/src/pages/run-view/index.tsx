import { Link, useParams } from 'react-router';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { endingInWords, inputText, isTerminal, PartialOutput, RunStatusBadge, useRun, useRunView } from '../../runs/index.js';
import { ApprovalsAndDecisions, CompressionsTable, HookChangesTable, OperationsTable, SupplementsList } from './detail-tables.js';
import { LoopsByRole, TaskTree } from './task-tree.js';

function tokens(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): string {
  if (!usage) return '—';
  return `${usage.inputTokens ?? 0} in, ${usage.outputTokens ?? 0} out`;
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
  const run = useRun(runId);
  const data = view.data;
  const status = run.data?.status ?? data?.status ?? '';
  const over = isTerminal(status);
  const base = `/spaces/${spaceId}/agents/${appId}`;
  return (
    <>
      <PageHeader title={`Run ${runId}`}>
        {status ? <RunStatusBadge status={status} /> : null}
        <Link to={`${base}/runs`}>Run log</Link>
        {data ? <Link to={`${base}/sessions/${data.sessionId}`}>Session</Link> : null}
      </PageHeader>
      <ProblemAlert problem={view.error ?? run.error} title="The run could not be read." />
      {data ? (
        <>
          <section className="card" aria-labelledby="run-summary">
            <h2 id="run-summary">Summary</h2>
            <p className="ending">
              {over
                ? endingInWords(status, data.reason ?? data.result?.reason, run.data?.stopCause)
                : 'Still going: this view refreshes every second.'}
            </p>
            <dl className="facts">
              <dt>Agent</dt>
              <dd>
                {data.name} ({data.agent?.mode === 'plan-executor' ? 'Plan–Executor' : 'ReAct'})
              </dd>
              <dt>Loops</dt>
              <dd>
                {data.loops} in total{data.agent ? ` (budget ${data.agent.maxLoops})` : ''}
              </dd>
              <dt>Usage</dt>
              <dd>{tokens(data.usage)}</dd>
              <dt>Started</dt>
              <dd>{new Date(data.createdAt).toLocaleString()}</dd>
              <dt>Input</dt>
              <dd className="pre-wrap">{inputText(data.input)}</dd>
            </dl>
            <h3>Output</h3>
            {status === 'succeeded' ? <p className="pre-wrap">{data.result?.output}</p> : null}
            {over && status !== 'succeeded' ? <PartialOutput view={data} /> : null}
            {!over ? (
              <p>
                <span className="badge badge-warn">Unfinished</span> no answer yet.
              </p>
            ) : null}
          </section>
          {data.agent ? (
            <>
              <section className="card" aria-labelledby="run-tasks">
                <h2 id="run-tasks">Tasks and loops</h2>
                <LoopsByRole tasks={data.agent.tasks} total={data.loops} />
                <TaskTree tasks={data.agent.tasks} />
              </section>
              <OperationsTable operations={data.agent.operations} tasks={data.agent.tasks} />
              <ApprovalsAndDecisions approvals={data.agent.approvals} operations={data.agent.operations} />
              <SupplementsList supplements={data.agent.supplements} />
              <CompressionsTable compressions={data.agent.compressions} tasks={data.agent.tasks} />
              <HookChangesTable changes={data.agent.hookChanges} />
            </>
          ) : (
            <p className="alert alert-info">The run has not started yet: no task, loop or call to show.</p>
          )}
        </>
      ) : null}
    </>
  );
}
