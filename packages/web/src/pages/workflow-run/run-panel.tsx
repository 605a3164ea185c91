import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { ProblemAlert } from '../../components/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { isTerminal, RunStatusBadge, statusLabel, useRunStream } from '../../runs/index.js';
import { InputRequests, type PendingInputView } from '../../runs/input-requests.js';
import { type RunGraph, workflowProgressOf } from '../../runs/workflow-progress.js';
import { edgesOf, nodesOf, placeIssues, type WorkflowDraft } from '../workflow-editor/draft-model.js';
import { runStatusWords, WorkflowCanvas } from '../workflow-editor/workflow-canvas.js';
import { AgentDrillIn } from './agent-drill-in.js';
import { TeamRunView } from './team-run-view.js';

/** The event stream's connection in words: message ids. */
const connectionWords = {
  connecting: 'workflowRun.connection.connecting',
  live: 'workflowRun.connection.live',
  're-attaching': 'workflowRun.connection.re-attaching',
  ended: 'workflowRun.connection.ended',
} as const satisfies Record<string, MessageId>;

/**
 * One workflow run on the canvas (P-8.12): each node's status live from the run's event stream
 * (re-attached after a dropped connection or a reload, with no event missed or repeated), the
 * nodes' statuses also as a list, the run's status and, once it succeeded, its output; clicking
 * an agent node drills into its inner run.
 */
export function RunPanel({ runId, draft, version }: { runId: string; draft: WorkflowDraft; version: number | undefined }) {
  const stream = useRunStream(runId, 'workflow');
  const [selected, setSelected] = useState<string | undefined>();
  const graph: RunGraph = useMemo(
    () => ({
      nodes: nodesOf(draft.definition).map((node) => node.name),
      edges: edgesOf(draft.definition).map((edge) => ({
        from: typeof edge.from === 'string' ? [edge.from] : edge.from,
        to: edge.to,
      })),
      teams: nodesOf(draft.definition).flatMap((node) => (node.kind === 'team' ? [node.name] : [])),
    }),
    [draft],
  );
  const progress = useMemo(() => workflowProgressOf(stream.events, graph), [stream.events, graph]);
  const finished = progress.finished;
  // The run row: its status (queued before a worker takes it, `stopping`) and, at the end, its output.
  const run = useQuery({
    queryKey: queryKeys.run(runId, Boolean(finished)),
    queryFn: async () => (await unwrap(api.GET('/runs/{runId}', { params: { path: { runId } } }))).run,
    refetchInterval: (query) => (query.state.data && isTerminal(query.state.data.status) ? false : 2000),
  });
  // A question saved by an input node (`workflow-interrupt`) or an answer taken: read the run row again now.
  const { refetch } = run;
  useEffect(() => {
    if (progress.questions > 0) void refetch();
  }, [progress.questions, refetch]);
  const stop = useMutation({
    mutationFn: () => unwrap(api.POST('/runs/{runId}/stop', { params: { path: { runId } } })),
    onSettled: () => void refetch(),
  });
  const placed = useMemo(() => placeIssues(draft, []), [draft]);
  const status = finished?.status ?? run.data?.status ?? 'queued';
  const selectedNode = nodesOf(draft.definition).find((node) => node.name === selected);
  const selectedState = selected ? progress.nodes.get(selected) : undefined;
  const output = finished?.status === 'succeeded' ? (finished.output ?? run.data?.output) : undefined;
  const t = useT();
  const pendingInputs = finished ? [] : ((run.data?.pendingInputs ?? []) as PendingInputView[]);
  const canStop = !finished && run.data !== undefined && !isTerminal(run.data.status) && run.data.status !== 'stopping';

  return (
    <section aria-labelledby="workflow-run-title">
      <h2 id="workflow-run-title">
        <FormattedMessage id="workflowRun.heading" values={{ runId, code: (text) => <code>{text}</code> }} />{' '}
        {version !== undefined ? t('workflowRun.ofRelease', { version }) : ''} <RunStatusBadge status={status} />
      </h2>
      <p className="field-hint" aria-live="polite">
        {t('workflowRun.events', { connection: t(connectionWords[stream.connection]) })}
        {stream.reattachments > 0
          ? t('workflowRun.reattached', { count: stream.reattachments, sequence: stream.resumedAfter })
          : ''}
      </p>
      <ProblemAlert problem={run.error} title={t('workflowRun.readFailed')} />
      {canStop ? (
        <div className="button-row">
          <button type="button" className="button-danger" disabled={stop.isPending} onClick={() => stop.mutate()}>
            {stop.isPending ? t('workflowRun.stopping') : t('workflowRun.stop')}
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={stop.error} title={t('workflowRun.notStopped')} />
      <InputRequests runId={runId} inputs={pendingInputs} onAnswered={() => void refetch()} />
      <WorkflowCanvas
        draft={draft}
        placed={placed}
        selected={selected}
        readOnly
        label={t('workflowRun.canvas', { runId })}
        bindingLabel={(node) => (node.kind === 'agent' ? node.agent : (node.tool ?? node.server ?? node.team))}
        onChange={() => {}}
        onSelect={setSelected}
        runStates={progress.nodes}
      />
      <div className="flow-run-details">
        <section className="card" aria-labelledby="run-nodes">
          <h3 id="run-nodes">{t('workflowRun.nodes')}</h3>
          <ul className="flow-state-list">
            {[...progress.nodes].map(([name, state]) => (
              <li key={name}>
                <strong>{name}</strong>: <span data-node-status={name}>{t(runStatusWords[state.status])}</span>
                {state.failure ? ` — ${state.failure}` : ''}
              </li>
            ))}
          </ul>
          <p className="field-hint">{t('workflowRun.selectAgent')}</p>
        </section>
        <section className="card" aria-labelledby="run-output">
          <h3 id="run-output">{t('workflowRun.output')}</h3>
          {output !== undefined ? (
            <pre className="flow-run-output" data-testid="run-output">
              {JSON.stringify(output, null, 2)}
            </pre>
          ) : finished ? (
            <p>
              {finished.reason
                ? t('workflowRun.noOutputReason', { status: statusLabel(t, finished.status), reason: finished.reason })
                : t('workflowRun.noOutput', { status: statusLabel(t, finished.status) })}
            </p>
          ) : (
            <p>{t('workflowRun.notFinished')}</p>
          )}
        </section>
      </div>
      <TeamRunView teams={progress.teams} />
      {selectedNode?.kind === 'agent' && selectedState?.taskId && selectedState.agentRunId ? (
        <AgentDrillIn key={selectedState.taskId} runId={runId} taskId={selectedState.taskId} node={selectedNode.name} />
      ) : selectedNode?.kind === 'agent' ? (
        <p className="alert alert-info">{t('workflowRun.agentNotStarted', { name: selectedNode.name })}</p>
      ) : null}
    </section>
  );
}
