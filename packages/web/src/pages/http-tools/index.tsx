import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../../api/index.js';
import {
  DataTable,
  type FieldErrors,
  FormCard,
  PageShell,
  SelectField,
  TextAreaField,
  TextField,
  useFormChecks,
} from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { resourceColumns, useResources } from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const exampleParameters = '{\n  "type": "object",\n  "properties": { "city": { "type": "string" } },\n  "required": ["city"]\n}';

/** Custom HTTP tools: the model calls them with JSON-Schema arguments, sent as the request's JSON body. */
export function HttpToolsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const tools = useResources(spaceId, 'tool');
  const t = useT();
  return (
    <PageShell title={t('httpTools.title')} problem={tools.error}>
      <DataTable
        caption={t('httpTools.caption')}
        columns={resourceColumns(t, t('httpTools.toolName'))}
        rows={tools.data?.resources}
        rowKey={(tool) => tool.id}
        empty={t('httpTools.empty')}
      />
      {access.canEdit ? <NewToolForm spaceId={spaceId} onCreated={tools.refresh} /> : null}
    </PageShell>
  );
}

function NewToolForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [method, setMethod] = useState<(typeof methods)[number]>('POST');
  const [url, setUrl] = useState('');
  const [parameters, setParameters] = useState(exampleParameters);
  const [timeout, setTimeoutText] = useState('30000');
  const t = useT();
  const create = useMutation({
    mutationFn: (parsed: Record<string, unknown>) =>
      unwrap(
        api.POST('/spaces/{spaceId}/resources', {
          params: { path: { spaceId } },
          body: {
            type: 'tool',
            name,
            description,
            content: {
              kind: 'http',
              description,
              parameters: parsed,
              request: { method, url, headers: {} },
              timeoutMs: Number(timeout),
            },
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setDescription('');
      setUrl('');
      onCreated();
    },
  });
  const checks = useFormChecks(create);
  const submit = () => {
    let parsed: Record<string, unknown> | undefined;
    let parametersError: string | undefined;
    try {
      const value: unknown = JSON.parse(parameters);
      if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'object')
        parametersError = t('httpTools.parametersNotObject');
      else parsed = value as Record<string, unknown>;
    } catch (error) {
      parametersError = t('httpTools.notJson', { error: (error as Error).message });
    }
    const found: FieldErrors = {
      name: /^[A-Za-z0-9_-]{1,64}$/.test(name) ? undefined : t('httpTools.nameInvalid'),
      description: description.trim() ? undefined : t('httpTools.descriptionMissing'),
      'content.request.url': /^https?:\/\/\S+$/.test(url) ? undefined : t('httpTools.urlInvalid'),
      'content.parameters': parametersError,
      'content.timeoutMs':
        Number.isInteger(Number(timeout)) && Number(timeout) >= 100 ? undefined : t('httpTools.timeoutTooShort'),
    };
    if (checks.accept(found, parsed !== undefined) && parsed) create.mutate(parsed);
  };
  return (
    <FormCard id="new-tool" title={t('httpTools.new')} checks={checks} onSubmit={submit} submitLabel={t('httpTools.create')}>
      <div className="form-grid">
        <TextField label={t('httpTools.toolName')} value={name} onValue={setName} error={checks.at('name')} />
        <TextField
          label={t('httpTools.description')}
          value={description}
          onValue={setDescription}
          error={checks.at('description') ?? checks.at('content.description')}
        />
        <SelectField
          label={t('httpTools.method')}
          value={method}
          onChange={(event) => setMethod(event.target.value as (typeof methods)[number])}
        >
          {methods.map((item) => (
            <option key={item}>{item}</option>
          ))}
        </SelectField>
        <TextField label={t('httpTools.url')} value={url} onValue={setUrl} error={checks.at('content.request.url')} />
        <TextField
          label={t('httpTools.timeout')}
          inputMode="numeric"
          value={timeout}
          onValue={setTimeoutText}
          error={checks.at('content.timeoutMs')}
        />
      </div>
      <TextAreaField
        label={t('httpTools.parameters')}
        rows={6}
        className="code"
        value={parameters}
        onValue={setParameters}
        error={checks.at('content.parameters')}
      />
    </FormCard>
  );
}
