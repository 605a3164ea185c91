import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiProblem, api, queries, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert, Tabs } from '../../components/index.js';
import { DraftConflictAlert, DraftIssueList, DraftSaveAndCheck, DraftStatus, useAppWithDraft } from '../../drafts/index.js';
import { useT } from '../../i18n/index.js';
import { useResources } from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';
import { autoLayout } from './auto-layout.js';
import type { PendingConnection } from './connect-choice.js';
import { downloadJson } from './download-json.js';
import {
  type DefinitionNode,
  type DraftIssue,
  ImportProblem,
  importDefinition,
  nodesOf,
  normaliseWorkflowDraft,
  placeIssues,
  type WorkflowDraft,
} from './draft-model.js';
import { LazyPublishDialog } from './lazy-publish.js';
import type { PanelContext } from './panel-context.js';
import { TeamNodeCard, useTeamLabel } from './team-node-fields.js';
import { useDraftHistory } from './use-draft-history.js';
import { WorkflowCanvas } from './workflow-canvas.js';
import { AddNodeForm, StateFieldsForm } from './workflow-settings.js';

/*
 * Loaded when first needed, so the editor's JavaScript at page load stays within the page budget
 * (scripts/report-bundle-size.ts): the side panel of a selection, the JSON view, the connection choice.
 */
const SelectionPanel = lazy(() => import('./node-panel.js').then((module) => ({ default: module.SelectionPanel })));
const JsonView = lazy(() => import('./json-view.js').then((module) => ({ default: module.JsonView })));
/** What a connection drawn on the canvas becomes: loaded when the first one is drawn (the page's JavaScript budget). */
const ConnectChoice = lazy(() => import('./connect-choice.js').then((module) => ({ default: module.ConnectChoice })));

/**
 * The workflow editor (P-7): the draft on a canvas — add, connect, configure and delete nodes,
 * positions kept in the draft's layout — and as JSON, both views editing the same draft; import
 * and export of the definition format; a save that detects conflicting edits (`If-Match` → 412
 * `stale-revision`); problems from a save, a check or a refused publish written on the nodes and
 * edges they concern and listed above the canvas; publishing with release notes.
 */
export function WorkflowEditorPage() {
  const { spaceId = '', appId = '' } = useParams();
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const { app, stored } = useAppWithDraft(appId);
  const teamLabel = useTeamLabel();
  const t = useT();
  const agentApps = useQuery(queries.agentChoices(spaceId));
  const tools = useResources(spaceId, 'tool');
  const mcpServers = useResources(spaceId, 'mcp-server');
  const [conflict, setConflict] = useState<number | undefined>();
  const [issues, setIssues] = useState<DraftIssue[]>([]);
  const [selected, setSelected] = useState<string | undefined>();
  const [importNote, setImportNote] = useState<{ ok: boolean; text: string } | undefined>();
  // Bumped when the whole draft is replaced (an import, their version loaded): forms holding typed text start over.
  const [generation, setGeneration] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<PendingConnection | undefined>();
  // Bumped after an auto-layout: the canvas fits the whole graph into view again.
  const [fitKey, setFitKey] = useState(0);
  const storedEdit = useMemo(
    () =>
      stored.data
        ? { draft: normaliseWorkflowDraft(stored.data.draft.config), revision: stored.data.draft.revision, dirty: false }
        : undefined,
    [stored.data],
  );
  const history = useDraftHistory(storedEdit);
  const { current, setEdit } = history;

  const save = useMutation({
    mutationFn: (input: NonNullable<typeof current>) =>
      unwrap(
        api.PUT('/apps/{appId}/draft', {
          params: { path: { appId }, header: { 'if-match': `"${input.revision}"` } },
          body: { config: input.draft as unknown as Record<string, unknown> },
        }),
      ),
    onSuccess: (result) => {
      setEdit({ draft: normaliseWorkflowDraft(result.draft.config), revision: result.draft.revision, dirty: false });
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
    },
  });
  const validate = useMutation({
    mutationFn: () => unwrap(api.POST('/apps/{appId}/draft/validate', { params: { path: { appId } } })),
    onSuccess: (result) => setIssues(result.issues),
  });

  const update = (change: (draft: WorkflowDraft) => WorkflowDraft, coalesce?: string) => {
    history.change(change, coalesce);
    validate.reset();
    save.reset();
  };
  const placed = useMemo(() => (current ? placeIssues(current.draft, issues) : undefined), [current, issues]);

  const loadError = app.error ?? stored.error ?? agentApps.error ?? tools.error ?? mcpServers.error;
  if (loadError) return <ProblemAlert problem={loadError} title={t('workflow.loadFailed')} />;
  // One render of the canvas with everything it names (the agents, tools and servers bound), not
  // one more per list arriving: each is a long task on a phone's CPU.
  if (!app.data || !current || !placed || agentApps.isPending || tools.isPending || mcpServers.isPending)
    return <p>{t('workflow.loading')}</p>;
  const readOnly = !access.canEdit;
  const { draft } = current;
  const apps = agentApps.data?.apps ?? [];
  const toolList = tools.data?.resources ?? [];
  const serverList = mcpServers.data?.resources ?? [];
  const bindingLabel = (node: DefinitionNode) => {
    // An input node asks a person: it binds nothing.
    if (node.kind === 'input') return '';
    if (node.kind === 'team') return teamLabel(node.team ? draft.bindings.teams?.[node.team] : undefined);
    if (node.kind === 'agent') {
      const appId = node.agent ? draft.bindings.agents[node.agent]?.appId : undefined;
      return (
        apps.find((candidate) => candidate.id === appId)?.name ??
        (appId
          ? t('workflow.binding.unknownApp', { name: node.agent })
          : t('workflow.binding.unbound', { name: node.agent ?? '' }))
      );
    }
    if (node.server !== undefined) {
      const serverId = draft.bindings.mcpServers[node.server]?.resourceId;
      const server = serverList.find((candidate) => candidate.id === serverId)?.name;
      const name =
        server ??
        (serverId
          ? t('workflow.binding.unknownServer', { name: node.server })
          : t('workflow.binding.unbound', { name: node.server }));
      return `${name} · ${node.tool ?? t('workflow.chooseTool')}`;
    }
    const resourceId = node.tool ? draft.bindings.tools[node.tool]?.resourceId : undefined;
    return (
      toolList.find((candidate) => candidate.id === resourceId)?.name ??
      (resourceId
        ? t('workflow.binding.unknownTool', { name: node.tool })
        : t('workflow.binding.unbound', { name: node.tool ?? '' }))
    );
  };
  const panelContext: PanelContext = {
    spaceId,
    draft,
    readOnly,
    agentApps: apps,
    tools: toolList,
    mcpServers: serverList,
    issuesOf: (name) => placed.byNode.get(name) ?? [],
    issues,
    onChange: update,
    onSelect: setSelected,
  };
  const selectedTeam = nodesOf(draft.definition).find((node) => node.kind === 'team' && node.name === selected);
  const definitionName = typeof draft.definition.name === 'string' ? draft.definition.name : 'workflow';
  const importFile = async (file: File) => {
    try {
      const { draft: imported, unbound } = importDefinition(JSON.parse(await file.text()), apps, toolList, serverList);
      update(() => imported);
      setSelected(undefined);
      setGeneration((value) => value + 1);
      setImportNote({
        ok: unbound.length === 0,
        text:
          unbound.length === 0
            ? t('workflow.imported', { file: file.name })
            : t('workflow.importedUnbound', { file: file.name, names: unbound.join(', ') }),
      });
    } catch (error) {
      setImportNote({
        ok: false,
        text: t('workflow.notImported', {
          file: file.name,
          message: error instanceof ImportProblem ? t(error.id) : (error as Error).message,
        }),
      });
    }
  };

  return (
    <>
      <PageHeader title={t('workflow.title', { name: app.data.app.name })}>
        <span className="badge badge-muted">{t('workflow.revision', { revision: current.revision })}</span>
        <Link to={`/spaces/${spaceId}/workflows/${appId}/releases`}>{t('workflow.releases')}</Link>
        <Link to={`/spaces/${spaceId}/workflows/${appId}/run`}>{t('workflow.run')}</Link>
      </PageHeader>
      {readOnly ? <p className="alert alert-info">{t('workflow.viewer')}</p> : null}
      {conflict !== undefined ? (
        <DraftConflictAlert
          revision={current.revision}
          conflict={conflict}
          onLoadTheirs={async () => {
            setEdit(undefined);
            setConflict(undefined);
            setGeneration((value) => value + 1);
            save.reset();
            await queryClient.invalidateQueries({ queryKey: queryKeys.draft(appId) });
          }}
          onOverwrite={() => save.mutate({ ...current, revision: conflict })}
        />
      ) : null}
      <DraftStatus
        save={save}
        validate={validate}
        dirty={current.dirty}
        revision={current.revision}
        issueCount={issues.length}
        readyText={t('workflow.ready')}
      />
      {importNote ? (
        <p className={`alert ${importNote.ok ? 'alert-info' : 'alert-warning'}`} role="status">
          {importNote.text}
        </p>
      ) : null}
      <DraftIssueList issues={issues} whereShown={t('workflow.issuesWhere')} emptyPath="definition" />
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
          <LazyPublishDialog
            appId={appId}
            spaceId={spaceId}
            disabled={current.dirty}
            releasesPath={`/spaces/${spaceId}/workflows/${appId}/releases`}
            description={t('workflow.publishDescription')}
            onRefused={(error) => {
              if (error instanceof ApiProblem) setIssues(error.issues);
            }}
          />
        )}
        <button type="button" onClick={() => downloadJson(`${definitionName}.workflow.json`, draft.definition)}>
          {t('workflow.export')}
        </button>
        {readOnly ? null : (
          <>
            <button type="button" onClick={() => fileInput.current?.click()}>
              {t('workflow.import')}
            </button>
            <input
              ref={fileInput}
              type="file"
              accept="application/json,.json"
              className="visually-hidden"
              aria-label={t('workflow.importFile')}
              tabIndex={-1}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void importFile(file);
              }}
            />
          </>
        )}
        {current.dirty ? <span className="field-hint">{t('workflow.saveFirst')}</span> : null}
      </div>
      {readOnly ? null : (
        <div className="toolbar" role="toolbar" aria-label={t('flow.toolbar')}>
          <button type="button" disabled={!history.canUndo} onClick={history.undo} aria-keyshortcuts="Control+Z Meta+Z">
            {t('flow.undo')}
          </button>
          <button
            type="button"
            disabled={!history.canRedo}
            onClick={history.redo}
            aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
          >
            {t('flow.redo')}
          </button>
          <button
            type="button"
            onClick={async () => {
              const positions = await autoLayout(draft);
              update((previous) => ({ ...previous, layout: { nodes: positions } }));
              setFitKey((value) => value + 1);
            }}
          >
            {t('flow.autoLayout')}
          </button>
          <span className="field-hint">{t('flow.shortcuts')}</span>
        </div>
      )}
      <Tabs
        label={t('workflow.views')}
        defaultValue="canvas"
        items={[
          {
            id: 'canvas',
            label: t('workflow.view.canvas'),
            content: (
              <>
                <div className="flow-layout">
                  <WorkflowCanvas
                    draft={draft}
                    placed={placed}
                    selected={selected}
                    readOnly={readOnly}
                    bindingLabel={bindingLabel}
                    onChange={update}
                    onSelect={setSelected}
                    onConnectDrawn={(from, to) => setPending({ from, to })}
                    fitKey={fitKey}
                  />
                  <div className="flow-side">
                    {pending && !readOnly ? (
                      <Suspense fallback={null}>
                        <ConnectChoice
                          draft={draft}
                          pending={pending}
                          onChange={update}
                          onSelect={setSelected}
                          onDone={() => setPending(undefined)}
                        />
                      </Suspense>
                    ) : null}
                    {selected ? (
                      <Suspense fallback={<p>{t('workflow.loading')}</p>}>
                        <SelectionPanel key={`${selected}@${history.steps}`} selected={selected} context={panelContext} />
                      </Suspense>
                    ) : null}
                    {selectedTeam ? (
                      <TeamNodeCard node={selectedTeam} draft={draft} agentApps={apps} readOnly={readOnly} onChange={update} />
                    ) : null}
                    {readOnly ? null : (
                      <AddNodeForm
                        draft={draft}
                        agentApps={apps}
                        tools={toolList}
                        mcpServers={serverList}
                        onChange={update}
                        onAdded={setSelected}
                      />
                    )}
                    <StateFieldsForm key={`${generation}@${history.steps}`} draft={draft} readOnly={readOnly} onChange={update} />
                  </div>
                </div>
              </>
            ),
          },
          {
            id: 'json',
            label: t('workflow.view.json'),
            content: (
              <>
                <Suspense fallback={<p>{t('workflow.loading')}</p>}>
                  <JsonView
                    key={history.steps}
                    definition={draft.definition}
                    readOnly={readOnly}
                    onChange={(definition) => update((previous) => ({ ...previous, definition }), 'json')}
                  />
                </Suspense>
              </>
            ),
          },
        ]}
      />
    </>
  );
}
