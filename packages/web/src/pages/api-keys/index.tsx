import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import {
  DataTable,
  type FieldErrors,
  FormCard,
  fieldMessage,
  focusFirstInvalid,
  hasErrors,
  PageShell,
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
      <PageShell title="API keys">
        <p>Only admins and owners see and create space API keys.</p>
      </PageShell>
    );
  }
  return (
    <PageShell title="API keys" problem={keys.error ?? revoke.error}>
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
      <DataTable
        caption="API keys of this space"
        columns={[
          { header: 'Name', cell: (key) => key.name },
          { header: 'Prefix', cell: (key) => <code>{key.prefix}…</code> },
          { header: 'Created by', cell: (key) => key.createdBy.email ?? key.createdBy.id },
          { header: 'Last used', cell: (key) => (key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : 'never') },
          { header: 'State', cell: (key) => (key.revokedAt ? 'revoked' : 'active') },
          {
            header: 'Actions',
            cell: (key) =>
              key.revokedAt ? null : (
                <button type="button" className="button-danger" onClick={() => revoke.mutate(key.id)}>
                  Revoke <span className="visually-hidden">{key.name}</span>
                </button>
              ),
          },
        ]}
        rows={keys.data?.keys}
        rowKey={(key) => key.id}
      />
      <FormCard
        id="new-key"
        title="New space key"
        formRef={form}
        onSubmit={submit}
        mutation={create}
        submitLabel="Create key"
        inline
      >
        <TextField
          label="Key name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={fieldMessage(errors, create.error, 'name')}
        />
      </FormCard>
    </PageShell>
  );
}
