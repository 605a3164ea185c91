import { SelectField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import type { AgentDraft } from './draft-state.js';
import { useEditor } from './editor-context.js';

type Fallback = NonNullable<NonNullable<AgentDraft['model']>['fallbacks']>[number];

/** The platform's limit on the fallback chain (the draft schema's). */
const maxFallbacks = 4;

/**
 * The model fallback chain (N-15): models tried in order after the agent's model when it fails
 * for good in a way another model may not. Each is a connection and one of its catalogued models.
 */
export function FallbackModelsField() {
  const { draft, update, connections, readOnly, issueAt } = useEditor();
  const t = useT();
  if (!draft.model) return null;
  const fallbacks = draft.model.fallbacks ?? [];
  const setFallbacks = (next: Fallback[]) =>
    update((current) =>
      current.model ? { ...current, model: { ...current.model, fallbacks: next.length > 0 ? next : undefined } } : current,
    );
  const firstEnabled = (connectionId: string) =>
    connections.find((item) => item.id === connectionId)?.models.find((entry) => entry.enabled)?.modelId ?? '';
  return (
    <section className="card card-nested" aria-label={t('fallback.legend')}>
      <h3>{t('fallback.legend')}</h3>
      <p className="field-hint">{t('fallback.hint')}</p>
      {fallbacks.map((fallback, index) => {
        const connection = connections.find((item) => item.id === fallback.connectionId);
        const number = index + 1;
        const replace = (change: Partial<Fallback>) =>
          setFallbacks(fallbacks.map((item, at) => (at === index ? { ...item, ...change } : item)));
        return (
          <div key={`fallback-${index.toString()}`}>
            <div className="form-grid">
              <SelectField
                label={t('fallback.connection', { number })}
                value={fallback.connectionId}
                disabled={readOnly}
                error={issueAt(`model.fallbacks.${index}.connectionId`)}
                onChange={(event) => replace({ connectionId: event.target.value, modelId: firstEnabled(event.target.value) })}
              >
                {connections.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.name}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label={t('fallback.model', { number })}
                value={fallback.modelId}
                disabled={readOnly}
                error={issueAt(`model.fallbacks.${index}.modelId`)}
                onChange={(event) => replace({ modelId: event.target.value })}
              >
                {connection?.models.map((entry) => (
                  <option key={entry.modelId} value={entry.modelId} disabled={!entry.enabled}>
                    {entry.modelId}
                  </option>
                ))}
              </SelectField>
            </div>
            {readOnly ? null : (
              <button
                type="button"
                className="button-danger"
                onClick={() => setFallbacks(fallbacks.filter((_, at) => at !== index))}
              >
                {t('fallback.remove', { number })}
              </button>
            )}
          </div>
        );
      })}
      {readOnly || fallbacks.length >= maxFallbacks || connections.length === 0 ? null : (
        <button
          type="button"
          onClick={() => {
            const connectionId = draft.model?.connectionId ?? connections[0]?.id ?? '';
            setFallbacks([...fallbacks, { connectionId, modelId: firstEnabled(connectionId) }]);
          }}
        >
          {t('fallback.add')}
        </button>
      )}
    </section>
  );
}
