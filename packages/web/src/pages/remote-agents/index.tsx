import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, type Schema, unwrap } from '../../api/index.js';
import {
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
  useResources,
  VersionCard,
  type VersionFields,
} from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';

/** A remote agent version's content: the platform's `RemoteAgentContent` schema, generated. */
type RemoteContent = Schema<'RemoteAgentContent'>;

/** The fields the forms edit: card URL, when to delegate, headers as JSON text. */
interface AgentFields {
  cardUrl: string;
  description: string;
  headers: string;
}

const emptyFields: AgentFields = { cardUrl: '', description: '', headers: '{}' };

/** Checks the fields; answers the content to send, or the problems by field path. */
function contentOf(t: Translate, fields: AgentFields): { content?: RemoteContent; errors: FieldErrors } {
  const parsed = parseJsonObjectText(fields.headers);
  const headers = parsed.value as RemoteContent['headers'] | undefined;
  const headersError =
    parsed.problem?.kind === 'not-json'
      ? t('remoteAgents.notJson', { error: parsed.problem.error })
      : parsed.problem
        ? t('remoteAgents.headersNotObject')
        : undefined;
  const errors: FieldErrors = {
    'content.cardUrl': /^https?:\/\/\S+$/.test(fields.cardUrl) ? undefined : t('remoteAgents.cardUrlInvalid'),
    'content.description': fields.description.trim() ? undefined : t('remoteAgents.delegateMissing'),
    'content.headers': headersError,
  };
  if (hasErrors(errors) || !headers) return { errors };
  return { errors, content: { cardUrl: fields.cardUrl, description: fields.description, headers } };
}

/** The card URL, delegation text and headers, shared by the new-agent form and a version form. */
function AgentFieldset({ fields, onChange, errors, problem, readOnly }: VersionFields<AgentFields>) {
  const t = useT();
  return (
    <>
      <TextField
        label={t('remoteAgents.cardUrl')}
        value={fields.cardUrl}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...fields, cardUrl: event.target.value })}
        error={fieldMessage(errors, problem, 'content.cardUrl')}
      />
      <TextField
        label={t('remoteAgents.delegate')}
        value={fields.description}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...fields, description: event.target.value })}
        error={fieldMessage(errors, problem, 'content.description')}
      />
      <TextAreaField
        label={t('remoteAgents.headers')}
        rows={3}
        className="code"
        value={fields.headers}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...fields, headers: event.target.value })}
        error={fieldMessage(errors, problem, 'content.headers')}
        hint={t('remoteAgents.headersHint')}
      />
    </>
  );
}

/**
 * Remote A2A agents shared in the space (issue 32, N-13): agent roles select them in their
 * capabilities (a tool named like the resource), workflows bind them for capability nodes.
 * "Read its card" fetches the Agent Card of the newest version through the egress policy and
 * shows what it offers, or why it could not be read.
 */
export function RemoteAgentsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const agents = useResources(spaceId, 'remote-agent');
  const t = useT();
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const selected = agents.data?.resources.find((resource) => resource.id === selectedId);
  return (
    <PageShell title={t('remoteAgents.title')} problem={agents.error}>
      <p className="field-hint">{t('remoteAgents.intro')}</p>
      <ResourceList
        resources={agents.data?.resources}
        selectedId={selectedId}
        onSelect={setSelectedId}
        emptyText={t('remoteAgents.empty')}
      />
      {selected ? (
        <AgentPanel
          key={`${selected.id}-${selected.latestVersion}`}
          spaceId={spaceId}
          agent={selected}
          canEdit={access.canEdit}
          onSaved={agents.refresh}
        />
      ) : null}
      {access.canEdit ? (
        <NewAgentForm spaceId={spaceId} onCreated={agents.refresh} />
      ) : (
        <p className="field-hint">{t('remoteAgents.viewersCannot')}</p>
      )}
    </PageShell>
  );
}

/** One remote agent: its newest version (edit saves a new one) and its card. */
function AgentPanel({
  spaceId,
  agent,
  canEdit,
  onSaved,
}: {
  spaceId: string;
  agent: Schema<'Resource'>;
  canEdit: boolean;
  onSaved: () => void;
}) {
  const t = useT();
  const card = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/resources/{resourceId}/agent-card', {
          params: { path: { spaceId, resourceId: agent.id } },
        }),
      ),
  });
  return (
    <VersionCard<AgentFields, RemoteContent>
      spaceId={spaceId}
      resource={agent}
      canEdit={canEdit}
      onSaved={onSaved}
      messages="remoteAgents"
      fieldsOf={(content) => ({
        cardUrl: content.cardUrl,
        description: content.description,
        headers: JSON.stringify(content.headers ?? {}),
      })}
      contentOf={contentOf}
      renderFields={(props) => <AgentFieldset {...props} />}
      action={
        <button type="button" disabled={card.isPending} onClick={() => card.mutate()}>
          {card.isPending ? t('remoteAgents.reading') : t('remoteAgents.readCard')}
        </button>
      }
    >
      <ProblemAlert problem={card.error} title={t('remoteAgents.cardFailed')} />
      {card.data ? <CardView card={card.data.card} /> : null}
    </VersionCard>
  );
}

/** What a card offers: its interface, streaming, and skills. */
function CardView({ card }: { card: Schema<'RemoteAgentCard'>['card'] }) {
  const t = useT();
  return (
    <section aria-labelledby="remote-agent-card">
      <h3 id="remote-agent-card">{t('remoteAgents.cardOf', { name: card.name })}</h3>
      <p>{card.description}</p>
      <dl className="facts">
        <dt>{t('remoteAgents.interface')}</dt>
        <dd>
          <code>{card.interfaceUrl}</code>
        </dd>
        <dt>{t('remoteAgents.streaming')}</dt>
        <dd>{card.streaming ? t('remoteAgents.yes') : t('remoteAgents.no')}</dd>
      </dl>
      <DataTable
        caption={t('remoteAgents.skill')}
        columns={[
          { key: 'skill', header: t('remoteAgents.skill'), cell: (skill) => skill.name },
          { key: 'description', header: t('remoteAgents.skillDescription'), cell: (skill) => skill.description },
        ]}
        rows={card.skills}
        rowKey={(skill) => skill.id}
      />
    </section>
  );
}

function NewAgentForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [fields, setFields] = useState<AgentFields>(emptyFields);
  const t = useT();
  const create = useCreateResource(spaceId, () => {
    setName('');
    setFields(emptyFields);
    onCreated();
  });
  const checks = useFormChecks(create);
  const submit = () => {
    const checked = contentOf(t, fields);
    const found: FieldErrors = {
      ...checked.errors,
      name: /^[A-Za-z0-9_-]{1,64}$/.test(name) ? undefined : t('remoteAgents.nameInvalid'),
    };
    if (checks.accept(found, checked.content !== undefined) && checked.content)
      create.mutate({ type: 'remote-agent', name, description: checked.content.description, content: checked.content });
  };
  return (
    <FormCard
      id="new-remote-agent"
      title={t('remoteAgents.new')}
      checks={checks}
      onSubmit={submit}
      submitLabel={t('remoteAgents.create')}
    >
      <TextField
        label={t('remoteAgents.name')}
        value={name}
        onValue={setName}
        error={checks.at('name')}
        hint={t('remoteAgents.nameHint')}
      />
      <AgentFieldset fields={fields} onChange={setFields} errors={checks.errors} problem={create.error} />
    </FormCard>
  );
}
