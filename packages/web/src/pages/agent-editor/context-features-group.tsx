import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { ContextEntriesField } from './context-entries-field.js';
import { numberOrUndefined } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { UserCommandsField } from './user-commands-field.js';

type ShapingMode = 'none' | 'merge' | 'strict';

/**
 * The context features of the agent (N-15): the user's instructions, message shaping, context
 * entries and their token budget, user commands, and memory. What the run's session note adds is
 * set per session, not here.
 */
export function ContextFeaturesGroup() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const t = useT();
  const setContext = (change: Partial<typeof draft.context>) =>
    update((current) => ({ ...current, context: { ...current.context, ...change } }));
  // The editor sets one mode for every provider; a mode per provider set elsewhere shows as its `*`.
  const shaping = draft.context.messageShaping;
  const mode: ShapingMode = typeof shaping === 'string' ? shaping : (shaping?.['*'] ?? 'none');
  const memory = draft.memory;
  return (
    <>
      <h3>{t('contextFeatures.legend')}</h3>
      <TextAreaField
        label={t('contextFeatures.instructions')}
        rows={3}
        readOnly={readOnly}
        hint={t('contextFeatures.instructionsHint')}
        value={draft.context.userInstructions ?? ''}
        error={issueAt('context.userInstructions')}
        onChange={(event) => setContext({ userInstructions: event.target.value || undefined })}
      />
      <div className="form-grid">
        <SelectField
          label={t('contextFeatures.shaping')}
          value={mode}
          disabled={readOnly}
          hint={t('contextFeatures.shapingHint')}
          onChange={(event) => {
            const value = event.target.value as ShapingMode;
            setContext({ messageShaping: value === 'none' ? undefined : value });
          }}
        >
          <option value="none">{t('contextFeatures.shaping.none')}</option>
          <option value="merge">{t('contextFeatures.shaping.merge')}</option>
          <option value="strict">{t('contextFeatures.shaping.strict')}</option>
        </SelectField>
        <TextField
          label={t('contextFeatures.entryBudget')}
          inputMode="numeric"
          placeholder={t('contextFeatures.noBudget')}
          readOnly={readOnly}
          value={draft.context.entryBudgetTokens ?? ''}
          error={issueAt('context.entryBudgetTokens')}
          onChange={(event) => setContext({ entryBudgetTokens: numberOrUndefined(event.target.value) })}
        />
      </div>
      <ContextEntriesField />
      <UserCommandsField />
      <section className="card card-nested" aria-label={t('memory.legend')}>
        <h3>{t('memory.legend')}</h3>
        <CheckboxField
          label={t('memory.enabled')}
          checked={memory?.enabled ?? false}
          disabled={readOnly}
          hint={t('memory.hint')}
          onChange={(event) =>
            update((current) => ({ ...current, memory: event.target.checked ? { ...current.memory, enabled: true } : undefined }))
          }
        />
        {memory?.enabled ? (
          <TextField
            label={t('memory.budget')}
            inputMode="numeric"
            placeholder="4000"
            readOnly={readOnly}
            value={memory.budgetCharacters ?? ''}
            error={issueAt('memory.budgetCharacters')}
            onChange={(event) =>
              update((current) => ({
                ...current,
                memory: { enabled: true, budgetCharacters: numberOrUndefined(event.target.value) },
              }))
            }
          />
        ) : null}
      </section>
    </>
  );
}
