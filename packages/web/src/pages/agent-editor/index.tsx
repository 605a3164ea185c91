import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiProblem, api, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert, Tabs } from '../../components/index.js';
import {
  DraftConflictAlert,
  type DraftEdit,
  DraftIssueList,
  DraftSaveAndCheck,
  DraftStatus,
  useAppWithDraft,
} from '../../drafts/index.js';
import { useT } from '../../i18n/index.js';
import { useSpaceAccess } from '../../session/index.js';
import { LazyPublishDialog as PublishDialog } from '../workflow-editor/lazy-publish.js';
import { ContextFeaturesGroup } from './context-features-group.js';
import { ContextGroup } from './context-group.js';
import { DebugPanel } from './debug-panel.js';
import { type AgentDraft, issueIndex, normaliseDraft } from './draft-state.js';
import { EditorContext, type EditorContextValue } from './editor-context.js';
import { EnvironmentGroup } from './environment-group.js';
import { ExecutionGroup } from './execution-group.js';
import { ExecutorRolesGroup } from './executor-roles-group.js';
import { FilesTab } from './files/index.js';
import { HooksGroup } from './hooks-group.js';
import { ModelGroup } from './model-group.js';
import { PermissionsGroup } from './permissions-group.js';
import { WorkDefinitionGroup } from './work-definition-group.js';

type Edit = DraftEdit<AgentDraft>;

/**
 * The agent editor for both modes (P-3.6, P-4.2): every configuration group with the platform
 * defaults shown, problems next to their fields, a save that detects conflicting edits
 * (`If-Match` → 412 `stale-revision`, shown with both ways out), and publishing.
 */
export function AgentEditorPage() {
  const { spaceId = '', appId = '' } = useParams();
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const { app, stored } = useAppWithDraft(appId);
  const connections = useQuery({
    queryKey: queryKeys.connections(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/model-connections', { params: { path: { spaceId } } })),
  });
  const resources = useQuery({
    queryKey: queryKeys.resources(spaceId, 'all'),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/resources', { params: { path: { spaceId } } })),
  });
  const builtIns = useQuery({
    queryKey: queryKeys.builtInTools(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/built-in-tools', { params: { path: { spaceId } } })),
  });
  const [edit, setEdit] = useState<Edit | undefined>();
  const [conflict, setConflict] = useState<number | undefined>();
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const current: Edit | undefined =
    edit ??
    (stored.data
      ? { draft: normaliseDraft(stored.data.draft.config), revision: stored.data.draft.revision, dirty: false }
      : undefined);

  const save = useMutation({
    mutationFn: (input: Edit) =>
      unwrap(
        api.PUT('/apps/{appId}/draft', {
          params: { path: { appId }, header: { 'if-match': `"${input.revision}"` } },
          body: { config: input.draft as Record<string, unknown> },
        }),
      ),
    onSuccess: (result) => {
      setEdit({ draft: normaliseDraft(result.draft.config), revision: result.draft.revision, dirty: false });
      setConflict(undefined);
      setIssues([]);
      queryClient.setQueryData(['draft', appId], result);
    },
    onError: (error) => {
      if (error instanceof ApiProblem && error.code === 'stale-revision') {
        setConflict(Number(error.details.currentRevision));
        return;
      }
      if (error instanceof ApiProblem) setIssues(error.issues);
      // A role taken away since the page loaded: the refusal stays on screen and the page turns read-only.
      if (error instanceof ApiProblem && error.status === 403) void queryClient.invalidateQueries({ queryKey: queryKeys.me() });
    },
  });
  const validate = useMutation({
    mutationFn: () => unwrap(api.POST('/apps/{appId}/draft/validate', { params: { path: { appId } } })),
    onSuccess: (result) => setIssues(result.issues),
  });

  const loadTheirs = async () => {
    setEdit(undefined);
    setConflict(undefined);
    save.reset();
    await queryClient.invalidateQueries({ queryKey: queryKeys.draft(appId) });
  };
  const overwrite = () => {
    if (current && conflict !== undefined) save.mutate({ ...current, revision: conflict });
  };

  const readOnly = !access.canEdit;
  const t = useT();
  const contextValue = useMemo<EditorContextValue | undefined>(() => {
    if (!current || !app.data) return undefined;
    const index = issueIndex(issues);
    return {
      draft: current.draft,
      update: (change) => {
        setEdit({ ...current, draft: change(current.draft), dirty: true });
        // A check or save result describes the draft before this change: drop the stale notice.
        validate.reset();
        save.reset();
      },
      issueAt: (path) => index.get(path),
      readOnly,
      mode: app.data.app.mode ?? 'react',
      connections: connections.data?.connections ?? [],
      resources: resources.data?.resources ?? [],
      builtInTools: builtIns.data?.tools ?? [],
    };
  }, [current, app.data, issues, readOnly, connections.data, resources.data, builtIns.data, validate.reset, save.reset]);

  const loadError = app.error ?? stored.error ?? connections.error ?? resources.error ?? builtIns.error;
  if (loadError) return <ProblemAlert problem={loadError} title={t('editor.loadFailed')} />;
  if (!contextValue || !app.data || !current) return <p>{t('editor.loading')}</p>;
  const mode = contextValue.mode;
  const groups = [
    {
      id: 'work',
      label: mode === 'react' ? t('editor.group.work') : t('editor.group.planner'),
      content: <WorkDefinitionGroup />,
    },
    { id: 'model', label: t('editor.group.model'), content: <ModelGroup /> },
    {
      id: 'context',
      label: t('editor.group.context'),
      content: (
        <>
          <ContextGroup />
          <ContextFeaturesGroup />
        </>
      ),
    },
    { id: 'execution', label: t('editor.group.execution'), content: <ExecutionGroup /> },
    { id: 'environment', label: t('editor.group.environment'), content: <EnvironmentGroup /> },
    ...(mode === 'plan-executor'
      ? [{ id: 'executors', label: t('editor.group.executors'), content: <ExecutorRolesGroup /> }]
      : []),
    { id: 'hooks', label: t('editor.group.hooks'), content: <HooksGroup spaceId={spaceId} /> },
    { id: 'permissions', label: t('editor.group.permissions'), content: <PermissionsGroup /> },
    // The agent's wiki and business files: live files, not part of the draft (issue 36).
    { id: 'files', label: t('files.tab'), content: <FilesTab appId={appId} readOnly={readOnly} /> },
  ];

  return (
    <EditorContext.Provider value={contextValue}>
      <PageHeader title={t('editor.title', { name: app.data.app.name })}>
        <span className="badge">{mode === 'react' ? t('agents.mode.react') : t('agents.mode.planExecutor')}</span>
        <span className="badge badge-muted">{t('editor.revision', { revision: current.revision })}</span>
        <Link to={`/spaces/${spaceId}/agents/${appId}/releases`}>{t('editor.releases')}</Link>
        <Link to={`/spaces/${spaceId}/agents/${appId}/chat`}>{t('editor.chat')}</Link>
        <Link to={`/spaces/${spaceId}/agents/${appId}/sessions`}>{t('editor.sessions')}</Link>
        <Link to={`/spaces/${spaceId}/agents/${appId}/runs`}>{t('editor.runLog')}</Link>
      </PageHeader>
      {readOnly ? <p className="alert alert-info">{t('editor.viewer')}</p> : null}
      {conflict !== undefined ? (
        <DraftConflictAlert revision={current.revision} conflict={conflict} onLoadTheirs={loadTheirs} onOverwrite={overwrite} />
      ) : null}
      <DraftStatus
        save={save}
        validate={validate}
        dirty={current.dirty}
        revision={current.revision}
        issueCount={issues.length}
        readyText={t('editor.ready')}
      />
      <DraftIssueList issues={issues} whereShown={t('editor.issuesWhere')} />
      <div className="toolbar">
        <DraftSaveAndCheck
          save={save}
          validate={validate}
          dirty={current.dirty}
          readOnly={readOnly}
          onSave={() => save.mutate(current)}
          onCheck={() => validate.mutate()}
        />
        {readOnly ? null : (
          <PublishDialog
            appId={appId}
            spaceId={spaceId}
            disabled={current.dirty}
            onRefused={(error) => {
              if (error instanceof ApiProblem) setIssues(error.issues);
            }}
          />
        )}
        {current.dirty ? <span className="field-hint">{t('editor.saveFirst')}</span> : null}
      </div>
      <Tabs
        label={t('editor.groups')}
        defaultValue="work"
        items={groups.map((group) => ({ id: group.id, label: group.label, content: group.content }))}
      />
      {readOnly ? null : (
        <DebugPanel
          appId={appId}
          runLinkBase={`/spaces/${spaceId}/agents/${appId}/runs`}
          disabledReason={current.dirty ? t('editor.debugNeedsSave') : undefined}
          onRefused={(error) => {
            if (error instanceof ApiProblem) setIssues(error.issues);
          }}
        />
      )}
    </EditorContext.Provider>
  );
}
