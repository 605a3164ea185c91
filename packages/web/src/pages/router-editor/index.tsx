import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiProblem, api, queryKeys, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';
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
import { ActionCard } from './action-card.js';
import { type CatalogAction, changeAction, normaliseCatalog, type RouterCatalog } from './catalog-model.js';
import { ConversationCard } from './conversation-card.js';
import { TryPanel } from './try-panel.js';

type Edit = DraftEdit<RouterCatalog>;
type Issue = { path: string; code: string; message: string };

/**
 * The router editor (issue 33): the catalog's actions — each the agent or workflow app it starts,
 * its rules and example utterances, its slots — and the conversation triggers (cancel,
 * chit-chat, hand-off), saved with `If-Match` conflict detection; a check that lists every
 * problem a publish would refuse; publishing; and the "try it" panel on the saved draft.
 */
export function RouterEditorPage() {
  const { spaceId = '', appId = '' } = useParams();
  const t = useT();
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const { app, stored } = useAppWithDraft(appId);
  const spaceApps = useQuery({
    queryKey: queryKeys.apps(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId } } })),
  });
  const [edit, setEdit] = useState<Edit | undefined>();
  const [conflict, setConflict] = useState<number | undefined>();
  const [issues, setIssues] = useState<Issue[]>([]);
  // Bumped when the whole draft is replaced (their version loaded): fields holding typed text start over.
  const [generation, setGeneration] = useState(0);
  const current: Edit | undefined =
    edit ??
    (stored.data
      ? { draft: normaliseCatalog(stored.data.draft.config), revision: stored.data.draft.revision, dirty: false }
      : undefined);

  const save = useMutation({
    mutationFn: (input: Edit) =>
      unwrap(
        api.PUT('/apps/{appId}/draft', {
          params: { path: { appId }, header: { 'if-match': `"${input.revision}"` } },
          body: { config: input.draft as unknown as Record<string, unknown> },
        }),
      ),
    onSuccess: (result) => {
      setEdit({ draft: normaliseCatalog(result.draft.config), revision: result.draft.revision, dirty: false });
      setConflict(undefined);
      setIssues([]);
      queryClient.setQueryData(queryKeys.draft(appId), result);
    },
    onError: (error) => {
      if (error instanceof ApiProblem && error.code === 'stale-revision') setConflict(Number(error.details.currentRevision));
      else if (error instanceof ApiProblem) setIssues(error.issues as Issue[]);
    },
  });
  const validate = useMutation({
    mutationFn: () => unwrap(api.POST('/apps/{appId}/draft/validate', { params: { path: { appId } } })),
    onSuccess: (result) => setIssues(result.issues),
  });
  const update = (change: (draft: RouterCatalog) => RouterCatalog) => {
    setEdit((previous) => {
      const base = previous ?? current;
      return base ? { ...base, draft: change(base.draft), dirty: true } : previous;
    });
    validate.reset();
    save.reset();
  };

  const loadError = app.error ?? stored.error ?? spaceApps.error;
  if (loadError) return <ProblemAlert problem={loadError} title={t('router.loadFailed')} />;
  if (!app.data || !current) return <p>{t('router.loading')}</p>;
  const readOnly = !access.canEdit;
  const targets = (spaceApps.data?.apps ?? []).filter((candidate) => candidate.kind === 'agent' || candidate.kind === 'workflow');
  const appName = (id: string) => targets.find((candidate) => candidate.id === id)?.name ?? id;
  const { draft } = current;
  return (
    <>
      <PageHeader title={t('router.editorTitle', { name: app.data.app.name })}>
        <span className="badge badge-muted">{t('router.revision', { revision: current.revision })}</span>
        <Link to={`/spaces/${spaceId}/routers/${appId}/releases`}>{t('router.releases')}</Link>
        <Link to={`/spaces/${spaceId}/routers/${appId}/chat`}>{t('router.chat')}</Link>
      </PageHeader>
      <p className="field-hint">{t('router.intro')}</p>
      {readOnly ? <p className="alert alert-info">{t('router.readOnly')}</p> : null}
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
        readyText={t('router.ready')}
      />
      <DraftIssueList issues={issues} whereShown={t('router.issuesWhere')} />
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
            releasesPath={`/spaces/${spaceId}/routers/${appId}/releases`}
            description={t('router.publishDescription')}
            onRefused={(error) => {
              if (error instanceof ApiProblem) setIssues(error.issues as Issue[]);
            }}
          />
        )}
        {current.dirty ? <span className="field-hint">{t('router.saveFirst')}</span> : null}
      </div>
      <div className="router-layout" key={generation}>
        <section aria-labelledby="router-actions-title">
          <h2 id="router-actions-title">{t('router.actions')}</h2>
          {draft.actions.length === 0 ? <p>{t('router.noActions')}</p> : null}
          {draft.actions.map((action, index) => (
            <ActionCard
              // biome-ignore lint/suspicious/noArrayIndexKey: actions are edited in place; a removal remounts the cards after it (generation)
              key={`${generation}-${index}`}
              action={action}
              index={index}
              apps={targets}
              readOnly={readOnly}
              onChange={(change) => update((catalog) => changeAction(catalog, index, change))}
              onRemove={() => {
                update((catalog) => ({ ...catalog, actions: catalog.actions.filter((_, at) => at !== index) }));
                setGeneration((value) => value + 1);
              }}
            />
          ))}
          {readOnly ? null : (
            <button
              type="button"
              onClick={() =>
                update((catalog) => ({
                  ...catalog,
                  actions: [...catalog.actions, { ref: { kind: 'agent', id: '' }, description: '' } satisfies CatalogAction],
                }))
              }
            >
              {t('router.addAction')}
            </button>
          )}
          <ConversationCard catalog={draft} readOnly={readOnly} onChange={update} />
        </section>
        <TryPanel appId={appId} disabled={current.dirty} appName={appName} />
      </div>
    </>
  );
}
