import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { DataTable, FormCard, PageShell, TextField, useFormChecks } from '../../components/index.js';
import { useFormatDateTime, useT } from '../../i18n/index.js';
import { useSpaceAccess } from '../../session/index.js';

/**
 * Space API keys: the list shows prefixes and who made each key; a new key's secret is shown
 * once, right after creation, and never again (the server keeps only its hash).
 */
export function ApiKeysPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const t = useT();
  const formatDateTime = useFormatDateTime();
  const keys = useQuery({
    queryKey: queryKeys.spaceKeys(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/api-keys', { params: { path: { spaceId } } })),
    enabled: access.canAdminister,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.spaceKeys(spaceId) });
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<{ name: string; value: string } | undefined>();
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
  const checks = useFormChecks(create);
  const submit = () => {
    if (checks.accept({ name: name.trim() ? undefined : t('keys.nameMissing') })) create.mutate();
  };

  if (!access.canAdminister) {
    return (
      <PageShell title={t('keys.title')}>
        <p>{t('keys.adminsOnly')}</p>
      </PageShell>
    );
  }
  return (
    <PageShell title={t('keys.title')} problem={keys.error ?? revoke.error}>
      {secret ? (
        <div className="alert alert-success" role="status">
          <p>
            <strong>{t('keys.copyNow', { name: secret.name })}</strong>
          </p>
          <TextField
            label={t('keys.secret')}
            className="secret"
            readOnly
            value={secret.value}
            onFocus={(event) => event.target.select()}
          />
          <button type="button" className="button-quiet" onClick={() => setSecret(undefined)}>
            {t('keys.copied')}
          </button>
        </div>
      ) : null}
      <DataTable
        caption={t('keys.caption')}
        columns={[
          { key: 'name', header: t('keys.name'), cell: (key) => key.name },
          { key: 'prefix', header: t('keys.prefix'), cell: (key) => <code>{key.prefix}…</code> },
          { key: 'by', header: t('keys.createdBy'), cell: (key) => key.createdBy.email ?? key.createdBy.id },
          {
            key: 'used',
            header: t('keys.lastUsed'),
            cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : t('keys.never')),
          },
          { key: 'state', header: t('keys.state'), cell: (key) => (key.revokedAt ? t('keys.revoked') : t('keys.active')) },
          {
            key: 'actions',
            header: t('keys.actions'),
            cell: (key) =>
              key.revokedAt ? null : (
                <button type="button" className="button-danger" onClick={() => revoke.mutate(key.id)}>
                  {t('keys.revoke')} <span className="visually-hidden">{key.name}</span>
                </button>
              ),
          },
        ]}
        rows={keys.data?.keys}
        rowKey={(key) => key.id}
      />
      <FormCard id="new-key" title={t('keys.new')} checks={checks} onSubmit={submit} submitLabel={t('keys.create')} inline>
        <TextField label={t('keys.keyName')} value={name} onValue={setName} error={checks.at('name')} />
      </FormCard>
    </PageShell>
  );
}
