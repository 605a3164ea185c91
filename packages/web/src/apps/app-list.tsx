import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, queries, queryKeys, type Schema, unwrap } from '../api/index.js';
import { type Column, DataTable, FormCard, NameAndDescription, PageShell, useFormChecks } from '../components/index.js';
import { useT } from '../i18n/index.js';
import { useSpaceAccess } from '../session/index.js';

/** An app as the space's app list returns it. */
export type AppSummary = Schema<'App'>;
type CreateBody = Schema<'CreateApp'>;

/** A column an app kind adds to the list, after the name. */
export type AppColumn = Column<AppSummary>;

/**
 * The list page of one kind of app (agents, workflows) with its "create" card: the table (name,
 * the kind's own columns, published, description), the empty row, and a form that checks the name
 * at its field, shows the server's refusal, and opens the new app's editor. Each kind adds its
 * columns, what the "published" cell links to, and any fields the create form needs. Every word
 * comes from the catalogues, chosen by `kind` (an ICU select), never assembled from a noun.
 *
 * Until the list has loaded, only the title and a loading line show: the table, the create form
 * and `children` (cards after the form) appear together with the rows, below everything already
 * painted, so nothing moves when the data arrives (on a phone the rows used to push the form off
 * the screen: a layout shift of 0.2–0.45).
 */
export function AppListPage({
  spaceId,
  kind,
  columns = [],
  publishedCell,
  createFields,
  createBody,
  children,
}: {
  spaceId: string;
  kind: 'agent' | 'workflow' | 'router';
  columns?: AppColumn[];
  /** The "Published" cell of a published app (links to its releases and uses). */
  publishedCell: (app: AppSummary) => ReactNode;
  /** Fields of the create form after name and description. */
  createFields?: ReactNode;
  /** The create request's body from the typed name and description. */
  createBody: (fields: { name: string; description: string }) => CreateBody;
  /** Shown after the create form once the list has loaded (e.g. a template card). */
  children?: ReactNode;
}) {
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const t = useT();
  const apps = useQuery(queries.apps(spaceId, kind));
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/spaces/{spaceId}/apps', { params: { path: { spaceId } }, body: createBody({ name, description }) })),
    onSuccess: async (result) => {
      // Every list of the space's apps (this one, the workflow editor's agent choices) is now out of date.
      await queryClient.invalidateQueries({ queryKey: queryKeys.apps(spaceId) });
      navigate(`/spaces/${spaceId}/${kind}s/${result.app.id}`);
    },
  });
  const checks = useFormChecks(create);
  const submit = () => {
    if (checks.accept({ name: name.trim() ? undefined : t('apps.nameMissing', { kind }) })) create.mutate();
  };
  return (
    <PageShell title={t('apps.title', { kind })} problem={apps.error}>
      {apps.isPending ? <p>{t('shell.loading')}</p> : null}
      {apps.isPending ? null : (
        <>
          <DataTable
            caption={t('apps.caption', { kind })}
            columns={[
              { key: 'name', header: t('apps.nameColumn', { kind }), cell: (app) => <Link to={app.id}>{app.name}</Link> },
              ...columns,
              {
                key: 'published',
                header: t('common.published'),
                cell: (app) => (app.latestReleaseId ? publishedCell(app) : t('common.notYet')),
              },
              { key: 'description', header: t('common.description'), cell: (app) => app.description },
            ]}
            rows={apps.data?.apps}
            rowKey={(app) => app.id}
            empty={t('apps.empty', { kind })}
          />
          {access.canEdit ? (
            <FormCard
              id={`new-${kind}`}
              title={t('apps.new', { kind })}
              checks={checks}
              onSubmit={submit}
              submitLabel={t('apps.create', { kind })}
            >
              <NameAndDescription
                name={name}
                onName={setName}
                nameError={checks.at('name')}
                description={description}
                onDescription={setDescription}
              />
              {createFields}
            </FormCard>
          ) : null}
          {children}
        </>
      )}
    </PageShell>
  );
}
