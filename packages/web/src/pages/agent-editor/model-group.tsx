import { CheckboxField, SelectField, TextField } from '../../components/index.js';
import { numberOrUndefined } from './draft-state.js';
import { useEditor } from './editor-context.js';

/**
 * Model (P-4.2): the agent's connection and model, Think and its strength. This is the only
 * model choice: executors and the compression agent inherit it (P-4.6, NOT-10).
 */
export function ModelGroup() {
  const { draft, update, connections, readOnly, issueAt, mode } = useEditor();
  const model = draft.model;
  const connection = connections.find((item) => item.id === model?.connectionId);
  return (
    <>
      <SelectField
        label="Model connection"
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
        <option value="">Choose a connection</option>
        {connections.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </SelectField>
      {model ? (
        <>
          <SelectField
            label="Model"
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
                {entry.enabled ? '' : ' (disabled)'}
              </option>
            ))}
          </SelectField>
          <CheckboxField
            label="Think (extended reasoning)"
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
            hint="Default: off."
          />
          {model.thinking?.enabled ? (
            <SelectField
              label="Think strength"
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
              <option value="low">low</option>
              <option value="medium">medium</option>
              <option value="high">high</option>
            </SelectField>
          ) : null}
          <TextField
            label="Maximum output tokens"
            inputMode="numeric"
            value={model.maxOutputTokens ?? ''}
            readOnly={readOnly}
            placeholder="provider default"
            error={issueAt('model.maxOutputTokens')}
            onChange={(event) =>
              update((current) =>
                current.model
                  ? { ...current, model: { ...current.model, maxOutputTokens: numberOrUndefined(event.target.value) } }
                  : current,
              )
            }
          />
        </>
      ) : null}
      <p className="field-hint">
        {mode === 'plan-executor'
          ? 'Executors and the compression agent use this model; they have no model choice of their own.'
          : 'The compression agent uses this model; it has no model choice of its own.'}
      </p>
    </>
  );
}
