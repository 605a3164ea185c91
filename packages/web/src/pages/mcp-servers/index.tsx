import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useParams, useSearchParams } from 'react-router';
import { api, type Schema, unwrap } from '../../api/index.js';
import {
  CheckboxField,
  DataTable,
  type FieldErrors,
  FormCard,
  fieldMessage,
  hasErrors,
  PageShell,
  ProblemAlert,
  TextAreaField,
  TextField,
  useFormChecks,
} from '../../components/index.js';
import { type Translate, useT } from '../../i18n/index.js';
import {
  parseJsonObjectText,
  ResourceList,
  useCreateResource,
  useLatestVersion,
  useResources,
  VersionCard,
  type VersionFields,
} from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';
import { SignInPanel } from './sign-in-panel.js';

/** An MCP server version's content: the platform's `McpServerContent` schema, generated. */
type McpContent = Schema<'McpServerContent'>;
/** A header value: text, or a space secret by name (resolved by the server when it connects). */
type Headers = Extract<McpContent, { transport: 'streamable-http' }>['headers'];

/** The URL and headers of a streamable-HTTP server as the form edits them, and their checks. */
interface ServerFields {
  url: string;
  headers: string;
  /** The server needs an OAuth sign-in (MCP authorization), optionally with a pre-registered client. */
  oauth: boolean;
  clientId: string;
}

const emptyServer: ServerFields = { url: '', headers: '{}', oauth: false, clientId: '' };

/** Checks the fields; answers the content to send, or the problems by field path. */
function contentOf(t: Translate, fields: ServerFields): { content?: McpContent; errors: FieldErrors } {
  const parsed = parseJsonObjectText(fields.headers);
  const headers = parsed.value as Headers | undefined;
  const headersError =
    parsed.problem?.kind === 'not-json'
      ? t('mcp.notJson', { error: parsed.problem.error })
      : parsed.problem
        ? t('mcp.headersNotObject')
        : undefined;
  const errors: FieldErrors = {
    'content.url': /^https?:\/\/\S+$/.test(fields.url) ? undefined : t('mcp.urlInvalid'),
    'content.headers': headersError,
  };
  if (hasErrors(errors) || !headers) return { errors };
  const oauth = fields.oauth ? { ...(fields.clientId.trim() ? { clientId: fields.clientId.trim() } : {}) } : undefined;
  return { errors, content: { transport: 'streamable-http', url: fields.url, headers, ...(oauth ? { oauth } : {}) } };
}

/** The URL and headers fields, shared by the new-server form and a server's version form. */
function ServerFieldset({ fields, onChange, errors, problem, readOnly }: VersionFields<ServerFields>) {
  const t = useT();
  return (
    <>
      <TextField
        label={t('mcp.url')}
        value={fields.url}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...fields, url: event.target.value })}
        error={fieldMessage(errors, problem, 'content.url')}
      />
      <TextAreaField
        label={t('mcp.headers')}
        rows={3}
        className="code"
        value={fields.headers}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...fields, headers: event.target.value })}
        error={fieldMessage(errors, problem, 'content.headers')}
        hint={t('mcp.headersHint')}
      />
      <CheckboxField
        label={t('mcpSignIn.oauth')}
        checked={fields.oauth}
        disabled={readOnly}
        onChange={(event) => onChange({ ...fields, oauth: event.target.checked })}
        hint={t('mcpSignIn.oauthHint')}
      />
      {fields.oauth ? (
        <TextField
          label={t('mcpSignIn.clientId')}
          value={fields.clientId}
          readOnly={readOnly}
          onChange={(event) => onChange({ ...fields, clientId: event.target.value })}
          error={fieldMessage(errors, problem, 'content.oauth.clientId')}
          hint={t('mcpSignIn.clientIdHint')}
        />
      ) : null}
    </>
  );
}

/**
 * MCP servers shared in the space (P-5.3): agents select them in their capabilities (the model
 * sees `<server>__<tool>`), workflows bind them for MCP tool nodes. Streamable HTTP servers are
 * added here; stdio servers run host processes and only instance administrators add them
 * (through the API). "Test: list tools" connects to the newest version and lists its tools, or
 * shows why it could not.
 */
export function McpServersPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const servers = useResources(spaceId, 'mcp-server');
  const t = useT();
  // Back from a sign-in: the platform's callback names the server and the outcome.
  const [search] = useSearchParams();
  const [selectedId, setSelectedId] = useState<string | undefined>(search.get('resource') ?? undefined);
  const selected = servers.data?.resources.find((resource) => resource.id === selectedId);
  const signInOutcome = search.get('resource') === selectedId ? (search.get('signIn') ?? undefined) : undefined;
  return (
    <PageShell title={t('mcp.title')} problem={servers.error}>
      <ResourceList
        resources={servers.data?.resources}
        selectedId={selectedId}
        onSelect={setSelectedId}
        emptyText={t('mcp.empty')}
      />
      {selected ? (
        <ServerPanel
          key={`${selected.id}-${selected.latestVersion}`}
          spaceId={spaceId}
          server={selected}
          canEdit={access.canEdit}
          onSaved={servers.refresh}
          signInOutcome={signInOutcome}
        />
      ) : null}
      {access.canEdit ? (
        <NewServerForm spaceId={spaceId} onCreated={servers.refresh} />
      ) : (
        <p className="field-hint">{t('mcp.viewersCannot')}</p>
      )}
    </PageShell>
  );
}

/** One server: its newest version (edit saves a new one) and the list-tools test. */
function ServerPanel({
  spaceId,
  server,
  canEdit,
  onSaved,
  signInOutcome,
}: {
  spaceId: string;
  server: Schema<'Resource'>;
  canEdit: boolean;
  onSaved: () => void;
  signInOutcome?: string | undefined;
}) {
  const latest = useLatestVersion(spaceId, server);
  const content = latest.data?.version.content as McpContent | undefined;
  const t = useT();
  const test = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/resources/{resourceId}/test', {
          params: { path: { spaceId, resourceId: server.id } },
          body: {},
        }),
      ),
  });
  return (
    <VersionCard<ServerFields, McpContent>
      spaceId={spaceId}
      resource={server}
      canEdit={canEdit}
      onSaved={onSaved}
      messages="mcp"
      fieldsOf={(stored) =>
        stored.transport === 'streamable-http'
          ? {
              url: stored.url,
              headers: JSON.stringify(stored.headers ?? {}),
              oauth: stored.oauth !== undefined,
              clientId: stored.oauth?.clientId ?? '',
            }
          : undefined
      }
      contentOf={contentOf}
      renderFields={(props) => <ServerFieldset {...props} />}
      otherwise={(stored) =>
        stored?.transport === 'stdio' ? (
          <p>
            <FormattedMessage
              id="mcp.stdio"
              values={{ command: () => <code>{[stored.command, ...(stored.args ?? [])].join(' ')}</code> }}
            />
          </p>
        ) : null
      }
      action={
        <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? t('mcp.testing') : t('mcp.test')}
        </button>
      }
    >
      <ProblemAlert problem={test.error} title={t('mcp.testFailed')} />
      {test.data ? <ToolList result={test.data} /> : null}
      {content?.transport === 'streamable-http' && content.oauth ? (
        <SignInPanel spaceId={spaceId} resourceId={server.id} canEdit={canEdit} outcome={signInOutcome} />
      ) : null}
    </VersionCard>
  );
}

/** The tools a test call found: what workflows name (`tool`) and what an agent's model sees. */
function ToolList({ result }: { result: Schema<'ResourceTestResult'> }) {
  const t = useT();
  return (
    <DataTable
      caption={
        <FormattedMessage id="mcp.toolsOf" values={{ count: result.tools.length, server: () => <code>{result.server}</code> }} />
      }
      showCaption
      columns={[
        { key: 'tool', header: t('mcp.tool'), cell: (tool) => <code>{tool.name}</code> },
        { key: 'model', header: t('mcp.modelSees'), cell: (tool) => <code>{tool.modelName}</code> },
        { key: 'description', header: t('mcp.description'), cell: (tool) => tool.description },
      ]}
      rows={result.tools}
      rowKey={(tool) => tool.name}
    />
  );
}

function NewServerForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [fields, setFields] = useState<ServerFields>(emptyServer);
  const t = useT();
  const create = useCreateResource(spaceId, () => {
    setName('');
    setDescription('');
    setFields(emptyServer);
    onCreated();
  });
  const checks = useFormChecks(create);
  const submit = () => {
    const checked = contentOf(t, fields);
    const found: FieldErrors = { ...checked.errors, name: name.trim() ? undefined : t('mcp.nameMissing') };
    if (checks.accept(found, checked.content !== undefined) && checked.content)
      create.mutate({ type: 'mcp-server', name, description, content: checked.content });
  };
  return (
    <FormCard id="new-mcp-server" title={t('mcp.new')} checks={checks} onSubmit={submit} submitLabel={t('mcp.create')}>
      <div className="form-grid">
        <TextField label={t('mcp.name')} value={name} onValue={setName} error={checks.at('name')} hint={t('mcp.nameHint')} />
        <TextField label={t('mcp.description')} value={description} onValue={setDescription} />
      </div>
      <ServerFieldset fields={fields} onChange={setFields} errors={checks.errors} problem={create.error} />
    </FormCard>
  );
}
