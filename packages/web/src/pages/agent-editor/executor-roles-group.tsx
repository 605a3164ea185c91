import { CheckboxField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { CapabilitiesPicker } from './capabilities-picker.js';
import { type ExecutorRole, noCapabilities } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { PromptSourceField } from './prompt-source-field.js';

function copyOf<Value>(value: Value): Value {
  return structuredClone(value);
}

/**
 * Executor roles of a Plan–Executor agent: each with its own prompt and capabilities, no model
 * choice (P-4.6). A new role may copy the planner's capabilities once (P-4.4): it gets a copy,
 * which does not follow later changes to the planner. A role may run in the background (N-7):
 * the planner goes on while its task runs.
 */
export function ExecutorRolesGroup() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const t = useT();
  const setRole = (index: number, change: Partial<ExecutorRole>) =>
    update((current) => ({
      ...current,
      executors: current.executors.map((role, at) => (at === index ? { ...role, ...change } : role)),
    }));
  const addRole = (copyPlanner: boolean) =>
    update((current) => ({
      ...current,
      executors: [
        ...current.executors,
        {
          name: `executor-${current.executors.length + 1}`,
          description: 'Does one task of the plan.',
          prompt: { text: 'Do the task you are given and report the result.' },
          capabilities: copyPlanner && current.planner ? copyOf(current.planner.capabilities) : noCapabilities(),
        },
      ],
    }));
  return (
    <>
      {issueAt('executors') ? <p className="field-error">{issueAt('executors')}</p> : null}
      {draft.executors.map((role, index) => (
        <section
          key={`executor-${index.toString()}`}
          className="card card-nested"
          aria-label={t('executors.region', { name: role.name })}
        >
          <div className="form-grid">
            <TextField
              label={t('executors.name', { number: index + 1 })}
              value={role.name}
              readOnly={readOnly}
              error={issueAt(`executors.${index}.name`)}
              onChange={(event) => setRole(index, { name: event.target.value })}
            />
            <TextField
              label={t('executors.description', { number: index + 1 })}
              value={role.description}
              readOnly={readOnly}
              error={issueAt(`executors.${index}.description`)}
              onChange={(event) => setRole(index, { description: event.target.value })}
            />
          </div>
          <CheckboxField
            label={t('executors.background', { number: index + 1 })}
            checked={role.background ?? false}
            disabled={readOnly}
            hint={t('executors.backgroundHint')}
            error={issueAt(`executors.${index}.background`)}
            onChange={(event) => setRole(index, { background: event.target.checked ? true : undefined })}
          />
          <PromptSourceField
            legend={t('executors.prompt', { number: index + 1 })}
            path={`executors.${index}.prompt`}
            value={role.prompt}
            onChange={(prompt) => setRole(index, { prompt: prompt ?? { text: '' } })}
          />
          <CapabilitiesPicker
            title={t('executors.capabilities', { number: index + 1 })}
            path={`executors.${index}.capabilities`}
            value={role.capabilities}
            onChange={(capabilities) => setRole(index, { capabilities })}
          />
          {readOnly ? null : (
            <button
              type="button"
              className="button-danger"
              onClick={() => update((current) => ({ ...current, executors: current.executors.filter((_, at) => at !== index) }))}
            >
              {t('executors.remove', { number: index + 1 })}
            </button>
          )}
        </section>
      ))}
      {readOnly ? null : (
        <div className="button-row">
          <button type="button" onClick={() => addRole(false)}>
            {t('executors.add')}
          </button>
          <button type="button" onClick={() => addRole(true)} disabled={!draft.planner}>
            {t('executors.addCopy')}
          </button>
        </div>
      )}
      <p className="field-hint">{t('executors.model')}</p>
    </>
  );
}
