import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import type { Schema } from '../../api/index.js';
import {
  type FieldErrors,
  FormCard,
  fieldMessage,
  NameAndDescription,
  Notice,
  PageShell,
  ProblemAlert,
  TextAreaField,
  useFormChecks,
} from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { ResourceList, useCreateResource, useLatestVersion, useResources, useSaveVersion } from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';

/**
 * Shared prompts: text with `{{variable}}` placeholders. Every save is a new immutable version;
 * agents that use a prompt pin its newest version when they publish.
 */
export function PromptsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const t = useT();
  const prompts = useResources(spaceId, 'prompt');
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const selected = prompts.data?.resources.find((resource) => resource.id === selectedId);
  return (
    <PageShell title={t('prompts.title')} problem={prompts.error}>
      <ResourceList
        resources={prompts.data?.resources}
        selectedId={selectedId}
        onSelect={setSelectedId}
        emptyText={t('prompts.empty')}
      />
      {selected ? (
        <PromptVersionForm
          key={`${selected.id}-${selected.latestVersion}`}
          spaceId={spaceId}
          prompt={selected}
          canEdit={access.canEdit}
          onSaved={prompts.refresh}
        />
      ) : null}
      {access.canEdit ? (
        <NewPromptForm spaceId={spaceId} onCreated={prompts.refresh} />
      ) : (
        <p className="field-hint">{t('prompts.viewersCannot')}</p>
      )}
    </PageShell>
  );
}

function PromptVersionForm({
  spaceId,
  prompt,
  canEdit,
  onSaved,
}: {
  spaceId: string;
  prompt: Schema<'Resource'>;
  canEdit: boolean;
  onSaved: () => void;
}) {
  const latest = useLatestVersion(spaceId, prompt);
  const t = useT();
  const current = (latest.data?.version.content as { text?: string } | undefined)?.text;
  const [text, setText] = useState<string | undefined>();
  const save = useSaveVersion<{ text: string }>(spaceId, prompt.id, onSaved);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ text: text ?? current ?? '' });
  };
  if (latest.isPending) return <p>{t('prompts.loading', { name: prompt.name })}</p>;
  return (
    <section className="card" aria-labelledby="prompt-version">
      <h2 id="prompt-version">{t('prompts.versionTitle', { name: prompt.name, version: prompt.latestVersion })}</h2>
      <form onSubmit={submit} noValidate>
        <TextAreaField
          label={t('prompts.text')}
          rows={6}
          value={text ?? current ?? ''}
          readOnly={!canEdit}
          onValue={setText}
          error={fieldMessage({}, save.error, 'content.text')}
        />
        <ProblemAlert problem={latest.error ?? save.error} />
        {save.isSuccess ? <Notice>{t('prompts.savedAs', { version: save.data.version.version })}</Notice> : null}
        {canEdit ? (
          <button type="submit" className="button-primary" disabled={save.isPending || text === undefined}>
            {t('prompts.saveVersion')}
          </button>
        ) : null}
      </form>
    </section>
  );
}

function NewPromptForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [text, setText] = useState('');
  const t = useT();
  const create = useCreateResource(spaceId, () => {
    setName('');
    setDescription('');
    setText('');
    onCreated();
  });
  const checks = useFormChecks(create);
  const submit = () => {
    const found: FieldErrors = {
      name: name.trim() ? undefined : t('prompts.nameMissing'),
      'content.text': text.trim() ? undefined : t('prompts.textMissing'),
    };
    if (checks.accept(found)) create.mutate({ type: 'prompt', name, description, content: { text } });
  };
  return (
    <FormCard id="new-prompt" title={t('prompts.new')} checks={checks} onSubmit={submit} submitLabel={t('prompts.create')}>
      <NameAndDescription
        name={name}
        onName={setName}
        nameError={checks.at('name')}
        description={description}
        onDescription={setDescription}
      />
      <TextAreaField
        label={t('prompts.newText')}
        rows={5}
        value={text}
        onValue={setText}
        error={checks.at('content.text')}
        hint={t('prompts.variablesHint')}
      />
    </FormCard>
  );
}
