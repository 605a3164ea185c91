import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, type Schema, unwrap } from '../../api/index.js';
import {
  DataTable,
  type FieldErrors,
  FormCard,
  PageShell,
  ProblemAlert,
  SelectField,
  TextAreaField,
  TextField,
  useFormChecks,
} from '../../components/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { useSpaceAccess } from '../../session/index.js';

type Provider = Schema<'ModelConnection'>['provider'];
const providerLabels: Record<Provider, MessageId> = {
  'openai-compatible': 'connections.provider.openai-compatible',
  anthropic: 'connections.provider.anthropic',
  'offline-demo': 'connections.provider.offline-demo',
};

/**
 * Model connections: keys are only ever shown masked; one key is active; a test call checks the
 * connection with its active key. Admins manage connections; everyone in the space sees them.
 */
export function ConnectionsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const t = useT();
  const connections = useQuery({
    queryKey: queryKeys.connections(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/model-connections', { params: { path: { spaceId } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.connections(spaceId) });

  return (
    <PageShell title={t('connections.title')} problem={connections.error}>
      {connections.data?.connections.length === 0 ? <p>{t('connections.none')}</p> : null}
      {connections.data?.connections.map((connection) => (
        <ConnectionCard
          key={connection.id}
          spaceId={spaceId}
          connection={connection}
          canManage={access.canAdminister}
          onChange={refresh}
        />
      ))}
      {access.canAdminister ? (
        <NewConnectionForm spaceId={spaceId} onCreated={refresh} />
      ) : (
        <p className="field-hint">{t('connections.adminsOnly')}</p>
      )}
    </PageShell>
  );
}

function ConnectionCard({
  spaceId,
  connection,
  canManage,
  onChange,
}: {
  spaceId: string;
  connection: Schema<'ModelConnection'>;
  canManage: boolean;
  onChange: () => void;
}) {
  const connectionId = connection.id;
  const firstModel = connection.models.find((model) => model.enabled)?.modelId ?? '';
  const [modelId, setModelId] = useState(firstModel);
  const test = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/model-connections/{connectionId}/test', {
          params: { path: { spaceId, connectionId } },
          body: { modelId },
        }),
      ),
  });
  const activate = useMutation({
    mutationFn: (keyId: string) =>
      unwrap(
        api.PATCH('/spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}', {
          params: { path: { spaceId, connectionId, keyId } },
          body: { active: true },
        }),
      ),
    onSettled: onChange,
  });
  const headingId = `connection-${connection.id}`;
  const t = useT();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {connection.name} <span className="badge">{t(providerLabels[connection.provider])}</span>
        {connection.state === 'archived' ? <span className="badge badge-muted">{t('connections.archived')}</span> : null}
      </h2>
      {connection.baseUrl ? <p>{t('connections.baseUrl', { url: connection.baseUrl })}</p> : null}
      <p>
        {t('connections.models', {
          models: connection.models.map((model) => model.modelId).join(', ') || t('connections.noModels'),
        })}
      </p>
      <DataTable
        caption={t('connections.keys')}
        showCaption
        columns={[
          { key: 'label', header: t('connections.keyLabel'), cell: (key) => key.label },
          { key: 'key', header: t('connections.key'), cell: (key) => <code>{key.mask}</code> },
          {
            key: 'active',
            header: t('connections.inUse'),
            cell: (key) =>
              key.active ? (
                t('connections.active')
              ) : canManage ? (
                <button type="button" className="button-quiet" onClick={() => activate.mutate(key.id)}>
                  {t('connections.makeActive')} <span className="visually-hidden">{key.label}</span>
                </button>
              ) : (
                t('connections.inactive')
              ),
          },
        ]}
        rows={connection.keys}
        rowKey={(key) => key.id}
        empty={t('connections.noKey', { needed: connection.provider === 'offline-demo' })}
      />
      <ProblemAlert problem={activate.error} />
      {canManage ? (
        <div className="inline-form">
          <TextField label={t('connections.testModel', { name: connection.name })} value={modelId} onValue={setModelId} />
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !modelId}>
            {test.isPending ? t('connections.testing') : t('connections.test')}
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={test.error} />
      {test.data ? (
        <output className={test.data.ok ? 'alert alert-success' : 'alert alert-error'}>
          {test.data.ok
            ? t('connections.answered', { text: test.data.text ?? '' })
            : t('connections.testFailed', { kind: test.data.failure?.kind, message: test.data.failure?.message })}
        </output>
      ) : null}
    </section>
  );
}

function NewConnectionForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<Provider>('offline-demo');
  const [baseUrl, setBaseUrl] = useState('');
  const [keyLabel, setKeyLabel] = useState('');
  const [keyValue, setKeyValue] = useState('');
  const [models, setModels] = useState('');
  const [fallback, setFallback] = useState('');
  const t = useT();
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/model-connections', {
          params: { path: { spaceId } },
          body: {
            name,
            provider,
            baseUrl: baseUrl.trim() || null,
            settings: provider === 'offline-demo' && fallback ? { demoFallback: fallback } : {},
            ...(keyValue ? { key: { label: keyLabel || 'default', value: keyValue } } : {}),
            models: models
              .split(',')
              .map((model) => model.trim())
              .filter(Boolean)
              .map((modelId) => ({ modelId, contextWindow: null, supportsThinking: false, enabled: true })),
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setKeyValue('');
      setKeyLabel('');
      onCreated();
    },
  });
  const checks = useFormChecks(create);
  const submit = () => {
    const found: FieldErrors = {
      name: name.trim() ? undefined : t('connections.nameMissing'),
      baseUrl: baseUrl && !/^https?:\/\/\S+$/.test(baseUrl.trim()) ? t('connections.urlInvalid') : undefined,
      'key.value': provider !== 'offline-demo' && !keyValue ? t('connections.keyMissing') : undefined,
      models: models.split(',').some((model) => model.trim()) ? undefined : t('connections.modelsMissing'),
    };
    if (checks.accept(found)) create.mutate();
  };
  return (
    <FormCard
      id="new-connection"
      title={t('connections.new')}
      checks={checks}
      onSubmit={submit}
      submitLabel={t('connections.create')}
    >
      <div className="form-grid">
        <TextField label={t('connections.name')} value={name} onValue={setName} error={checks.at('name')} />
        <SelectField
          label={t('connections.providerLabel')}
          value={provider}
          onChange={(event) => setProvider(event.target.value as Provider)}
        >
          {Object.entries(providerLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('connections.baseUrlLabel')} value={baseUrl} onValue={setBaseUrl} error={checks.at('baseUrl')} />
        <TextField
          label={t('connections.modelsLabel')}
          value={models}
          onValue={setModels}
          error={checks.at('models')}
          hint={t('connections.modelsHint')}
        />
        <TextField label={t('connections.keyLabelLabel')} value={keyLabel} onValue={setKeyLabel} />
        <TextField
          label={t('connections.apiKey')}
          type="password"
          autoComplete="off"
          value={keyValue}
          onValue={setKeyValue}
          error={checks.at('key.value')}
          hint={t('connections.apiKeyHint')}
        />
      </div>
      {provider === 'offline-demo' ? (
        <TextAreaField
          label={t('connections.fallback')}
          value={fallback}
          onValue={setFallback}
          rows={2}
          hint={t('connections.fallbackHint')}
        />
      ) : null}
    </FormCard>
  );
}
