import { TextAreaField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import type { AgentDraft } from './draft-state.js';
import { useEditor } from './editor-context.js';

type Command = NonNullable<AgentDraft['context']['commands']>[number];

/** User commands (N-15): `/name` at the start of a run input expands to the stored prompt. */
export function UserCommandsField() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const t = useT();
  const commands = draft.context.commands ?? [];
  const setCommands = (next: Command[]) =>
    update((current) => ({ ...current, context: { ...current.context, commands: next.length > 0 ? next : undefined } }));
  const replace = (index: number, change: Partial<Command>) =>
    setCommands(commands.map((command, at) => (at === index ? { ...command, ...change } : command)));
  return (
    <section className="card card-nested" aria-label={t('commands.legend')}>
      <h3>{t('commands.legend')}</h3>
      <p className="field-hint">{t('commands.hint')}</p>
      {commands.map((command, index) => {
        const number = index + 1;
        const path = `context.commands.${index}`;
        return (
          <section
            key={`command-${index.toString()}`}
            className="card card-nested"
            aria-label={t('commands.region', { name: command.name })}
          >
            <div className="form-grid">
              <TextField
                label={t('commands.name', { number })}
                value={command.name}
                readOnly={readOnly}
                error={issueAt(`${path}.name`)}
                onChange={(event) => replace(index, { name: event.target.value })}
              />
              <TextField
                label={t('commands.description', { number })}
                value={command.description ?? ''}
                readOnly={readOnly}
                onChange={(event) => replace(index, { description: event.target.value || undefined })}
              />
            </div>
            <TextAreaField
              label={t('commands.prompt', { number })}
              rows={2}
              value={command.prompt}
              readOnly={readOnly}
              error={issueAt(`${path}.prompt`)}
              onChange={(event) => replace(index, { prompt: event.target.value })}
            />
            {readOnly ? null : (
              <button
                type="button"
                className="button-danger"
                onClick={() => setCommands(commands.filter((_, at) => at !== index))}
              >
                {t('commands.remove', { number })}
              </button>
            )}
          </section>
        );
      })}
      {readOnly ? null : (
        <button type="button" onClick={() => setCommands([...commands, { name: `command-${commands.length + 1}`, prompt: '' }])}>
          {t('commands.add')}
        </button>
      )}
    </section>
  );
}
