import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, queryKeys, type Schema, unwrap } from '../api/index.js';
import {
  type FieldErrors,
  fieldMessage,
  focusFirstInvalid,
  hasErrors,
  PageHeader,
  ProblemAlert,
  TextField,
} from '../components/index.js';
import { useSpaceAccess } from '../session/index.js';

/** An app as the space's app list returns it. */
export type AppSummary = Schema<'App'>;
type CreateBody = Schema<'CreateApp'>;

/** A column an app kind adds to the list, after the name. */
export interface AppColumn {
  header: string;
  cell: (app: AppSummary) => ReactNode;
}

/**
 * The list page of one kind of app (agents, workflows) with its "create" card: the table (name,
 * the kind's own columns, published, description), the empty row, and a form that checks the name
 * at its field, shows the server's refusal, and opens the new app's editor. Each kind adds its
 * columns, what the "published" cell links to, and any fields the create form needs.
 */
export function AppListPage({
  spaceId,
  kind,
  title,
  noun,
  columns = [],
  publishedCell,
  createFields,
  createBody,
}: {
  spaceId: string;
  kind: 'agent' | 'workflow';
  /** The page title, plural: "Agents". */
  title: string;
  /** One app, lower case: "agent". */
  noun: string;
  columns?: AppColumn[];
  /** The "Published" cell of a published app (links to its releases and uses). */
  publishedCell: (app: AppSummary) => ReactNode;
  /** Fields of the create form after name and description. */
  createFields?: ReactNode;
  /** The create request's body from the typed name and description. */
  createBody: (fields: { name: string; description: string }) => CreateBody;
}) {
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const apps = useQuery({
    queryKey: queryKeys.apps(spaceId, kind),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId }, query: { kind } } })),
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/spaces/{spaceId}/apps', { params: { path: { spaceId } }, body: createBody({ name, description }) })),
    onSuccess: async (result) => {
      // Every list of the space's apps (this one, the workflow editor's agent choices) is now out of date.
      await queryClient.invalidateQueries({ queryKey: queryKeys.apps(spaceId) });
      navigate(`/spaces/${spaceId}/${kind}s/${result.app.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : `Give the ${noun} a name.` };
    setErrors(found);
    if (hasErrors(found)) return focusFirstInvalid(form.current);
    create.mutate();
  };
  const columnCount = columns.length + 3;
  return (
    <>
      <PageHeader title={title} />
      <ProblemAlert problem={apps.error} />
      <table className="table">
        <caption className="visually-hidden">{title} of this space</caption>
        <thead>
          <tr>
            <th scope="col">{noun[0]?.toUpperCase() + noun.slice(1)}</th>
            {columns.map((column) => (
              <th scope="col" key={column.header}>
                {column.header}
              </th>
            ))}
            <th scope="col">Published</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {apps.data?.apps.map((app) => (
            <tr key={app.id}>
              <td>
                <Link to={app.id}>{app.name}</Link>
              </td>
              {columns.map((column) => (
                <td key={column.header}>{column.cell(app)}</td>
              ))}
              <td>{app.latestReleaseId ? publishedCell(app) : 'not yet'}</td>
              <td>{app.description}</td>
            </tr>
          ))}
          {apps.data?.apps.length === 0 ? (
            <tr>
              <td colSpan={columnCount}>No {noun} yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {access.canEdit ? (
        <section className="card" aria-labelledby={`new-${kind}`}>
          <h2 id={`new-${kind}`}>New {noun}</h2>
          <form ref={form} onSubmit={submit} noValidate>
            <div className="form-grid">
              <TextField
                label="Name"
                value={name}
                onChange={(event) => setName(event.target.value)}
                error={fieldMessage(errors, create.error, 'name')}
              />
              <TextField label="Description" value={description} onChange={(event) => setDescription(event.target.value)} />
            </div>
            {createFields}
            <ProblemAlert problem={create.error} />
            <button type="submit" className="button-primary" disabled={create.isPending}>
              Create {noun}
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}
