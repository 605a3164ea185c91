import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useNavigate, useParams } from 'react-router';
import { api, queries, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { CrashWorkerCard, SuggestedQuestion } from '../../demo/index.js';
import { useT } from '../../i18n/index.js';
import '../workflow-editor/workflow-editor.css';
import { nodesOf, normaliseWorkflowDraft, type WorkflowDraft } from '../workflow-editor/draft-model.js';
import { RunForm } from './run-form.js';
import { RunPanel } from './run-panel.js';

/**
 * Running a published workflow from its page (P-8.12): the run form (release and JSON
 * input), then — at `…/runs/:runId`, so a reload re-attaches to the same run — the release's
 * graph on a canvas with each node's live status, the run's output, and the inner run of any
 * agent node clicked.
 */
export function WorkflowRunPage() {
  const { spaceId = '', appId = '', runId } = useParams();
  const navigate = useNavigate();
  const t = useT();
  const base = `/spaces/${spaceId}/workflows/${appId}`;
  const app = useQuery(queries.app(appId));
  const releases = useQuery(queries.releases(appId));
  // The canvas layout is the draft's (a release keeps no layout); nodes it does not know are placed by depth.
  const stored = useQuery(queries.draft(appId));
  const run = useQuery(queries.run(runId));
  const [chosen, setChosen] = useState<number | undefined>();
  const list = releases.data?.releases ?? [];
  const ofRun = list.find((release) => release.id === run.data?.releaseId)?.version;
  const version = chosen ?? ofRun ?? list[0]?.version;
  const release = useReleaseDefinition(appId, version);
  // The run's canvas draws the release the run runs, whatever the form has chosen since.
  const runVersion = ofRun ?? list[0]?.version;
  const runRelease = useReleaseDefinition(appId, runId ? runVersion : undefined);

  const loadError = app.error ?? releases.error ?? stored.error ?? run.error ?? release.error ?? runRelease.error;
  const layout = stored.data ? normaliseWorkflowDraft(stored.data.draft.config) : undefined;
  const withDefinition = (definition: Record<string, unknown> | undefined): WorkflowDraft | undefined =>
    layout && definition ? { ...layout, definition } : undefined;
  const draft = withDefinition(release.data);
  const runDraft = withDefinition(runRelease.data);
  const state = (draft?.definition.state ?? {}) as Record<string, unknown>;

  return (
    <>
      <PageHeader title={t('workflowRun.title', { name: app.data?.app.name ?? '…' })}>
        <Link to={base}>{t('workflowRun.backToEditor')}</Link>
        <Link to={`${base}/releases`}>{t('workflow.releases')}</Link>
      </PageHeader>
      <ProblemAlert problem={loadError} title={t('workflow.loadFailed')} />
      {releases.data && list.length === 0 ? (
        <p className="alert alert-info">
          <FormattedMessage id="workflowRun.nothingPublished" values={{ link: (text) => <Link to={base}>{text}</Link> }} />
        </p>
      ) : null}
      {draft && version !== undefined ? (
        <>
          <SuggestedQuestion
            description={app.data?.app.description}
            ask={(question) => {
              // The suggested value goes into the first state field no node writes: the workflow's input (the demo's topic or task).
              const written = new Set(nodesOf(draft.definition).flatMap((node) => (node.output ? [node.output] : [])));
              const field = Object.keys(state).find((name) => !written.has(name)) ?? 'input';
              void unwrap(
                api.POST('/apps/{appId}/runs', {
                  params: { path: { appId } },
                  body: { input: { [field]: question }, releaseVersion: version, mode: 'async', release: 'latest' },
                }),
              ).then((answer) => navigate(`${base}/runs/${(answer as { runId: string }).runId}`));
            }}
          />
          <RunForm
            key={version}
            appId={appId}
            versions={list.map((item) => item.version)}
            version={version}
            state={state}
            written={nodesOf(draft.definition).flatMap((node) => (node.output ? [node.output] : []))}
            onVersion={setChosen}
            onStarted={(started) => {
              setChosen(version);
              navigate(`${base}/runs/${started}`);
            }}
          />
          {runId && runDraft ? <RunPanel key={runId} runId={runId} draft={runDraft} version={runVersion} /> : null}
          {runId ? <CrashWorkerCard spaceId={spaceId} runId={runId} /> : null}
        </>
      ) : !loadError && list.length > 0 ? (
        <p>{t('workflow.loading')}</p>
      ) : null}
    </>
  );
}

/** The workflow definition of one release (its snapshot), once `version` is known. */
function useReleaseDefinition(appId: string, version: number | undefined) {
  return useQuery({
    queryKey: queryKeys.release(appId, version),
    enabled: version !== undefined,
    queryFn: async () => {
      const { release } = await unwrap(
        api.GET('/apps/{appId}/releases/{version}', { params: { path: { appId, version: version ?? 1 } } }),
      );
      return (release.snapshot as { definition?: Record<string, unknown> }).definition ?? {};
    },
  });
}
