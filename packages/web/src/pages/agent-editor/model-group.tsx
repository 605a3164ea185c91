import { CheckboxField, SelectField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { numberOrUndefined } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { FallbackModelsField } from './fallback-models-field.js';

/**
 * Model (P-4.2): the agent's connection and model, Think and its strength. This is the only
 * model choice: executors and the compression agent inherit it (P-4.6, NOT-10).
 */
export function ModelGroup() {
  const { draft, update, connections, readOnly, issueAt, mode } = useEditor();
  const model = draft.model;
  const t = useT();
  const connection = connections.find((item) => item.id === model?.connectionId);
  return (
    <>
      <SelectField
        label={t('model.connection')}
        value={model?.connectionId ?? ''}
        disabled={readOnly}
        error={issueAt('model') ?? issueAt('model.connectionId')}
        onChange={(event) => {
          const chosen = connections.find((item) => item.id === event.target.value);
          update((current) => ({
            ...current,
            model: chosen
              ? { connectionId: chosen.id, modelId: chosen.models.find((entry) => entry.enabled)?.modelId ?? '' }
              : undefined,
          }));
        }}
      >
        <option value="">{t('model.chooseConnection')}</option>
        {connections.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </SelectField>
      {model ? (
        <>
          <SelectField
            label={t('model.model')}
            value={model.modelId}
            disabled={readOnly}
            error={issueAt('model.modelId')}
            onChange={(event) =>
              update((current) =>
                current.model ? { ...current, model: { ...current.model, modelId: event.target.value } } : current,
              )
            }
          >
            {connection?.models.map((entry) => (
              <option key={entry.modelId} value={entry.modelId} disabled={!entry.enabled}>
                {entry.modelId}
                {entry.enabled ? '' : t('model.disabled')}
              </option>
            ))}
          </SelectField>
          <CheckboxField
            label={t('model.think')}
            checked={model.thinking?.enabled ?? false}
            disabled={readOnly}
            onChange={(event) =>
              update((current) =>
                current.model
                  ? {
                      ...current,
                      model: {
                        ...current.model,
                        thinking: event.target.checked ? { enabled: true, effort: 'medium' } : undefined,
                      },
                    }
                  : current,
              )
            }
            hint={t('model.thinkDefault')}
          />
          {model.thinking?.enabled ? (
            <SelectField
              label={t('model.thinkStrength')}
              value={model.thinking.effort ?? 'medium'}
              disabled={readOnly}
              onChange={(event) =>
                update((current) =>
                  current.model
                    ? {
                        ...current,
                        model: {
                          ...current.model,
                          thinking: { enabled: true, effort: event.target.value as 'low' | 'medium' | 'high' },
                        },
                      }
                    : current,
                )
              }
            >
              <option value="low">{t('model.effort.low')}</option>
              <option value="medium">{t('model.effort.medium')}</option>
              <option value="high">{t('model.effort.high')}</option>
            </SelectField>
          ) : null}
          <TextField
            label={t('model.maxOutput')}
            inputMode="numeric"
            value={model.maxOutputTokens ?? ''}
            readOnly={readOnly}
            placeholder={t('model.providerDefault')}
            error={issueAt('model.maxOutputTokens')}
            onChange={(event) =>
              update((current) =>
                current.model
                  ? { ...current, model: { ...current.model, maxOutputTokens: numberOrUndefined(event.target.value) } }
                  : current,
              )
            }
          />
          <FallbackModelsField />
        </>
      ) : null}
      <p className="field-hint">{mode === 'plan-executor' ? t('model.inheritedPlanExecutor') : t('model.inheritedReact')}</p>
    </>
  );
}
