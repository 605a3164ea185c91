import { useQuery } from '@tanstack/react-query';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { ProblemAlert } from '../../components/index.js';
import { isTerminal, type RunDescriptionView, RunStatusBadge } from '../../runs/index.js';
import { OperationsTable } from '../run-view/detail-tables.js';
import { LoopsByRole, TaskTree } from '../run-view/task-tree.js';

/**
 * Drills into an agent node of a workflow run (R-6): the inner agent run of task `taskId`, read
 * through its workflow run (`GET /runs/:id/agent-view?taskId=`, NOT-24) — its tasks and loops,
 * its tool calls (and delegations) with their attempts, and its answer. Refreshed every second
 * while the inner run goes on.
 */
export function AgentDrillIn({ runId, taskId, node }: { runId: string; taskId: string; node: string }) {
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
        Agent node {node}: its run (task <code>{taskId}</code>)
      </h2>
      <ProblemAlert problem={view.error} title="The agent's run could not be read." />
      {data ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <RunStatusBadge status={data.status} />
            </dd>
            <dt>Agent</dt>
            <dd>
              {data.name} ({data.agent?.mode === 'plan-executor' ? 'Plan–Executor' : 'ReAct'})
            </dd>
            <dt>Loops</dt>
            <dd>{data.loops}</dd>
          </dl>
          {data.agent ? (
            <>
              <LoopsByRole tasks={data.agent.tasks} total={data.loops} />
              <TaskTree tasks={data.agent.tasks} />
              <OperationsTable operations={data.agent.operations} tasks={data.agent.tasks} />
            </>
          ) : (
            <p>The agent's run has not started yet.</p>
          )}
          <h3>Answer</h3>
          {data.status === 'succeeded' ? <p className="pre-wrap">{data.result?.output}</p> : <p>No answer yet.</p>}
        </>
      ) : (
        <p>Loading the agent's run…</p>
      )}
    </section>
  );
}
