import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
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

/**
 * Space API keys: the list shows prefixes and who made each key; a new key's secret is shown
 * once, right after creation, and never again (the server keeps only its hash).
 */
export function ApiKeysPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: queryKeys.spaceKeys(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/api-keys', { params: { path: { spaceId } } })),
    enabled: access.canAdminister,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.spaceKeys(spaceId) });
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [secret, setSecret] = useState<{ name: string; value: string } | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/spaces/{spaceId}/api-keys', { params: { path: { spaceId } }, body: { name } })),
    onSuccess: (result) => {
      setSecret({ name: result.key.name, value: result.secret });
      setName('');
      return refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) =>
      unwrap(api.DELETE('/spaces/{spaceId}/api-keys/{keyId}', { params: { path: { spaceId, keyId } } })),
    onSettled: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : 'Name the key after who or what uses it.' };
    setErrors(found);
    if (hasErrors(found)) return focusFirstInvalid(form.current);
    create.mutate();
  };

  if (!access.canAdminister) {
    return (
      <>
        <PageHeader title="API keys" />
        <p>Only admins and owners see and create space API keys.</p>
      </>
    );
  }
  return (
    <>
      <PageHeader title="API keys" />
      {secret ? (
        <div className="alert alert-success" role="status">
          <p>
            <strong>Copy the secret of “{secret.name}” now: it is shown only once.</strong>
          </p>
          <TextField
            label="New API key secret"
            className="secret"
            readOnly
            value={secret.value}
            onFocus={(event) => event.target.select()}
          />
          <button type="button" className="button-quiet" onClick={() => setSecret(undefined)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={keys.error ?? revoke.error} />
      <table className="table">
        <caption className="visually-hidden">API keys of this space</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Created by</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.data?.keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.createdBy.email ?? key.createdBy.id}</td>
              <td>{key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : 'never'}</td>
              <td>{key.revokedAt ? 'revoked' : 'active'}</td>
              <td>
                {key.revokedAt ? null : (
                  <button type="button" className="button-danger" onClick={() => revoke.mutate(key.id)}>
                    Revoke <span className="visually-hidden">{key.name}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <section aria-labelledby="new-key" className="card">
        <h2 id="new-key">New space key</h2>
        <form ref={form} onSubmit={submit} noValidate className="inline-form">
          <TextField
            label="Key name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldMessage(errors, create.error, 'name')}
          />
          <button type="submit" className="button-primary" disabled={create.isPending}>
            Create key
          </button>
        </form>
        <ProblemAlert problem={create.error} />
      </section>
    </>
  );
}
