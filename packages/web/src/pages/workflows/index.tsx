import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/index.js';
import {
  type FieldErrors,
  fieldMessage,
  focusFirstInvalid,
  hasErrors,
  PageHeader,
  ProblemAlert,
  TextField,
} from '../../components/index.js';
import { useSpaceAccess } from '../../session/index.js';

/** The space's workflow apps and the "create" entry; a new workflow opens on an empty canvas. */
export function WorkflowsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const apps = useQuery({
    queryKey: ['workflows', spaceId],
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId }, query: { kind: 'workflow' } } })),
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/apps', { params: { path: { spaceId } }, body: { kind: 'workflow', name, description } }),
      ),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['workflows', spaceId] });
      navigate(`/spaces/${spaceId}/workflows/${result.app.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : 'Give the workflow a name.' };
    setErrors(found);
    if (hasErrors(found)) return focusFirstInvalid(form.current);
    create.mutate();
  };
  return (
    <>
      <PageHeader title="Workflows" />
      <ProblemAlert problem={apps.error} />
      <table className="table">
        <caption className="visually-hidden">Workflows of this space</caption>
        <thead>
          <tr>
            <th scope="col">Workflow</th>
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
              <td>{app.latestReleaseId ? <Link to={`${app.id}/releases`}>yes</Link> : 'not yet'}</td>
              <td>{app.description}</td>
            </tr>
          ))}
          {apps.data?.apps.length === 0 ? (
            <tr>
              <td colSpan={3}>No workflow yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {access.canEdit ? (
        <section className="card" aria-labelledby="new-workflow">
          <h2 id="new-workflow">New workflow</h2>
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
            <ProblemAlert problem={create.error} />
            <button type="submit" className="button-primary" disabled={create.isPending}>
              Create workflow
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}
