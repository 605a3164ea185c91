import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../../api/index.js';
import {
  type FieldErrors,
  fieldMessage,
  focusFirstInvalid,
  hasErrors,
  PageHeader,
  ProblemAlert,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/index.js';
import { useResources } from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const exampleParameters = '{\n  "type": "object",\n  "properties": { "city": { "type": "string" } },\n  "required": ["city"]\n}';

/** Custom HTTP tools: the model calls them with JSON-Schema arguments, sent as the request's JSON body. */
export function HttpToolsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const tools = useResources(spaceId, 'tool');
  return (
    <>
      <PageHeader title="HTTP tools" />
      <ProblemAlert problem={tools.error} />
      <table className="table">
        <caption className="visually-hidden">HTTP tools of this space</caption>
        <thead>
          <tr>
            <th scope="col">Tool name</th>
            <th scope="col">Description</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {tools.data?.resources.map((tool) => (
            <tr key={tool.id}>
              <td>
                <code>{tool.name}</code>
              </td>
              <td>{tool.description}</td>
              <td>v{tool.latestVersion}</td>
            </tr>
          ))}
          {tools.data?.resources.length === 0 ? (
            <tr>
              <td colSpan={3}>No HTTP tool yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {access.canEdit ? <NewToolForm spaceId={spaceId} onCreated={tools.refresh} /> : null}
    </>
  );
}

function NewToolForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [method, setMethod] = useState<(typeof methods)[number]>('POST');
  const [url, setUrl] = useState('');
  const [parameters, setParameters] = useState(exampleParameters);
  const [timeout, setTimeoutText] = useState('30000');
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown> | undefined;
    let parametersError: string | undefined;
    try {
      const value: unknown = JSON.parse(parameters);
      if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'object')
        parametersError = 'The parameters must be a JSON Schema with "type": "object".';
      else parsed = value as Record<string, unknown>;
    } catch (error) {
      parametersError = `Not valid JSON: ${(error as Error).message}`;
    }
    const found: FieldErrors = {
      name: /^[A-Za-z0-9_-]{1,64}$/.test(name)
        ? undefined
        : 'Use letters, digits, _ and - (at most 64): the model calls the tool by this name.',
      description: description.trim() ? undefined : 'Tell the model what the tool does.',
      'content.request.url': /^https?:\/\/\S+$/.test(url) ? undefined : 'Enter a full http(s) URL.',
      'content.parameters': parametersError,
      'content.timeoutMs': Number.isInteger(Number(timeout)) && Number(timeout) >= 100 ? undefined : 'At least 100 ms.',
    };
    setErrors(found);
    if (hasErrors(found) || !parsed) return focusFirstInvalid(form.current);
    create.mutate(parsed);
  };
  return (
    <section className="card" aria-labelledby="new-tool">
      <h2 id="new-tool">New HTTP tool</h2>
      <form ref={form} onSubmit={submit} noValidate>
        <div className="form-grid">
          <TextField
            label="Tool name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldMessage(errors, create.error, 'name')}
          />
          <TextField
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            error={fieldMessage(errors, create.error, 'description') ?? fieldMessage({}, create.error, 'content.description')}
          />
          <SelectField
            label="Method"
            value={method}
            onChange={(event) => setMethod(event.target.value as (typeof methods)[number])}
          >
            {methods.map((item) => (
              <option key={item}>{item}</option>
            ))}
          </SelectField>
          <TextField
            label="URL"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            error={fieldMessage(errors, create.error, 'content.request.url')}
          />
          <TextField
            label="Timeout (ms)"
            inputMode="numeric"
            value={timeout}
            onChange={(event) => setTimeoutText(event.target.value)}
            error={fieldMessage(errors, create.error, 'content.timeoutMs')}
          />
        </div>
        <TextAreaField
          label="Parameters (JSON Schema)"
          rows={6}
          className="code"
          value={parameters}
          onChange={(event) => setParameters(event.target.value)}
          error={fieldMessage(errors, create.error, 'content.parameters')}
        />
        <ProblemAlert problem={create.error} />
        <button type="submit" className="button-primary" disabled={create.isPending}>
          Create tool
        </button>
      </form>
    </section>
  );
}
