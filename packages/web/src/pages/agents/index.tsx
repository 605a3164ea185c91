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

type Mode = 'react' | 'plan-executor';
const modeLabels: Record<Mode, string> = { react: 'ReAct', 'plan-executor': 'Plan–Executor' };

/** The space's agents and the one "create" entry; the execution mode is chosen here for good (P-3.5). */
export function AgentsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const apps = useQuery({
    queryKey: ['apps', spaceId],
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId }, query: { kind: 'agent' } } })),
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [mode, setMode] = useState<Mode>('react');
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/apps', { params: { path: { spaceId } }, body: { kind: 'agent', mode, name, description } }),
      ),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['apps', spaceId] });
      navigate(`/spaces/${spaceId}/agents/${result.app.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : 'Give the agent a name.' };
    setErrors(found);
    if (hasErrors(found)) return focusFirstInvalid(form.current);
    create.mutate();
  };
  return (
    <>
      <PageHeader title="Agents" />
      <ProblemAlert problem={apps.error} />
      <table className="table">
        <caption className="visually-hidden">Agents of this space</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Mode</th>
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
              <td>{app.mode ? modeLabels[app.mode] : ''}</td>
              <td>
                {app.latestReleaseId ? (
                  <>
                    <Link to={`${app.id}/releases`}>yes</Link> ·{' '}
                    <Link to={`${app.id}/chat`} aria-label={`Chat with ${app.name}`}>
                      chat
                    </Link>
                  </>
                ) : (
                  'not yet'
                )}
              </td>
              <td>{app.description}</td>
            </tr>
          ))}
          {apps.data?.apps.length === 0 ? (
            <tr>
              <td colSpan={4}>No agent yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {access.canEdit ? (
        <section className="card" aria-labelledby="new-agent">
          <h2 id="new-agent">New agent</h2>
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
            <fieldset className="fieldset">
              <legend>Execution mode (cannot be changed later)</legend>
              {(Object.keys(modeLabels) as Mode[]).map((item) => (
                <label key={item} className="check-row">
                  <input type="radio" name="mode" value={item} checked={mode === item} onChange={() => setMode(item)} />{' '}
                  {modeLabels[item]}
                  <span className="field-hint">
                    {item === 'react'
                      ? ' — one agent that thinks and calls tools in a loop.'
                      : ' — a planner that hands tasks to executor roles.'}
                  </span>
                </label>
              ))}
            </fieldset>
            <ProblemAlert problem={create.error} />
            <button type="submit" className="button-primary" disabled={create.isPending}>
              Create agent
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}
