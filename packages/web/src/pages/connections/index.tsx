import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, type Schema, unwrap } from '../../api/index.js';
import {
  DataTable,
  type FieldErrors,
  FormCard,
  fieldMessage,
  PageShell,
  ProblemAlert,
  SelectField,
  TextAreaField,
  TextField,
  useFieldChecks,
} from '../../components/index.js';
import { useSpaceAccess } from '../../session/index.js';

type Provider = Schema<'ModelConnection'>['provider'];
const providerLabels: Record<Provider, string> = {
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
  'offline-demo': 'Offline demo (no vendor key)',
};

/**
 * Model connections: keys are only ever shown masked; one key is active; a test call checks the
 * connection with its active key. Admins manage connections; everyone in the space sees them.
 */
export function ConnectionsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const connections = useQuery({
    queryKey: queryKeys.connections(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/model-connections', { params: { path: { spaceId } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.connections(spaceId) });

  return (
    <PageShell title="Model connections" problem={connections.error}>
      {connections.data?.connections.length === 0 ? <p>No model connection yet.</p> : null}
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
        <p className="field-hint">Only admins and owners manage model connections.</p>
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
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {connection.name} <span className="badge">{providerLabels[connection.provider]}</span>
        {connection.state === 'archived' ? <span className="badge badge-muted">archived</span> : null}
      </h2>
      {connection.baseUrl ? <p>Base URL: {connection.baseUrl}</p> : null}
      <p>Models: {connection.models.map((model) => model.modelId).join(', ') || 'none listed'}</p>
      <DataTable
        caption="Keys (masked)"
        showCaption
        columns={[
          { header: 'Label', cell: (key) => key.label },
          { header: 'Key', cell: (key) => <code>{key.mask}</code> },
          {
            header: 'In use',
            cell: (key) =>
              key.active ? (
                'active'
              ) : canManage ? (
                <button type="button" className="button-quiet" onClick={() => activate.mutate(key.id)}>
                  Make active <span className="visually-hidden">{key.label}</span>
                </button>
              ) : (
                'inactive'
              ),
          },
        ]}
        rows={connection.keys}
        rowKey={(key) => key.id}
        empty={`No key${connection.provider === 'offline-demo' ? ' needed' : ''}.`}
      />
      <ProblemAlert problem={activate.error} />
      {canManage ? (
        <div className="inline-form">
          <TextField
            label={`Model to test on ${connection.name}`}
            value={modelId}
            onChange={(event) => setModelId(event.target.value)}
          />
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !modelId}>
            {test.isPending ? 'Testing…' : 'Test call'}
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={test.error} />
      {test.data ? (
        <output className={test.data.ok ? 'alert alert-success' : 'alert alert-error'}>
          {test.data.ok
            ? `The model answered: ${test.data.text ?? ''}`
            : `The test call failed (${test.data.failure?.kind}): ${test.data.failure?.message}`}
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
  const { errors, form, accept } = useFieldChecks();
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {
      name: name.trim() ? undefined : 'Give the connection a name.',
      baseUrl: baseUrl && !/^https?:\/\/\S+$/.test(baseUrl.trim()) ? 'Enter a full http(s) URL.' : undefined,
      'key.value': provider !== 'offline-demo' && !keyValue ? 'This provider needs an API key.' : undefined,
      models: models.split(',').some((model) => model.trim()) ? undefined : 'List at least one model id.',
    };
    if (!accept(found)) return;
    create.mutate();
  };
  return (
    <FormCard
      id="new-connection"
      title="New model connection"
      formRef={form}
      onSubmit={submit}
      mutation={create}
      submitLabel="Create connection"
    >
      <div className="form-grid">
        <TextField
          label="Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={fieldMessage(errors, create.error, 'name')}
        />
        <SelectField label="Provider" value={provider} onChange={(event) => setProvider(event.target.value as Provider)}>
          {Object.entries(providerLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Base URL (optional)"
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          error={fieldMessage(errors, create.error, 'baseUrl')}
        />
        <TextField
          label="Models (comma-separated ids)"
          value={models}
          onChange={(event) => setModels(event.target.value)}
          error={fieldMessage(errors, create.error, 'models')}
          hint="The catalogue agents choose their model from, e.g. offline-demo-1."
        />
        <TextField label="Key label" value={keyLabel} onChange={(event) => setKeyLabel(event.target.value)} />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          value={keyValue}
          onChange={(event) => setKeyValue(event.target.value)}
          error={fieldMessage(errors, create.error, 'key.value')}
          hint="Stored encrypted; shown masked from now on."
        />
      </div>
      {provider === 'offline-demo' ? (
        <TextAreaField
          label="Demo fallback reply"
          value={fallback}
          onChange={(event) => setFallback(event.target.value)}
          rows={2}
          hint="What the offline model answers when no rule matches."
        />
      ) : null}
    </FormCard>
  );
}
