import { useState } from 'react';
import type { Schema } from '../../api/index.js';
import { SelectField, TextAreaField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import type { CatalogAction } from './catalog-model.js';
import { withRule } from './catalog-model.js';
import { LinesField } from './lines-field.js';

/**
 * One action of the router: the agent or workflow app it starts, what it does, its rules
 * (keywords, patterns, negative keywords, priority), its example utterances and its slots (as
 * JSON: the slot format has more parts than a form would show well).
 */
export function ActionCard({
  action,
  index,
  apps,
  readOnly,
  onChange,
  onRemove,
}: {
  action: CatalogAction;
  index: number;
  apps: readonly Schema<'App'>[];
  readOnly: boolean;
  onChange: (change: (action: CatalogAction) => CatalogAction) => void;
  onRemove: () => void;
}) {
  const t = useT();
  const [slotsText, setSlotsText] = useState(JSON.stringify(action.slots ?? [], null, 2));
  const [slotsError, setSlotsError] = useState<string | undefined>();
  const targetValue = `${action.ref.kind}:${action.ref.id}`;
  const known = apps.some((app) => `${app.kind}:${app.id}` === targetValue);
  return (
    <fieldset className="card card-nested router-action">
      <legend>{t('router.action', { n: index + 1 })}</legend>
      <SelectField
        label={t('router.target')}
        value={action.ref.id ? targetValue : ''}
        disabled={readOnly}
        onChange={(event) => {
          const [kind, id] = event.target.value.split(':') as ['agent' | 'workflow', string];
          onChange((current) => ({ ...current, ref: { kind, id } }));
        }}
      >
        <option value="">{t('router.chooseTarget')}</option>
        {apps.map((app) => (
          <option key={app.id} value={`${app.kind}:${app.id}`}>
            {t('router.targetOption', { kind: app.kind, name: app.name })}
          </option>
        ))}
        {action.ref.id && !known ? <option value={targetValue}>{t('router.unknownTarget', { id: action.ref.id })}</option> : null}
      </SelectField>
      <TextField
        label={t('router.description')}
        value={action.description}
        readOnly={readOnly}
        onChange={(event) => {
          const description = event.target.value;
          onChange((current) => ({ ...current, description }));
        }}
      />
      <LinesField
        label={t('router.keywords')}
        hint={t('router.keywordsHint')}
        values={action.rules?.keywords ?? []}
        readOnly={readOnly}
        onLines={(lines) => onChange((current) => withRule(current, 'keywords', lines))}
      />
      <LinesField
        label={t('router.examples')}
        hint={t('router.examplesHint')}
        values={action.examples ?? []}
        readOnly={readOnly}
        onLines={(examples) => onChange((current) => ({ ...current, examples }))}
      />
      <LinesField
        label={t('router.patterns')}
        values={action.rules?.patterns ?? []}
        readOnly={readOnly}
        onLines={(lines) => onChange((current) => withRule(current, 'patterns', lines))}
      />
      <LinesField
        label={t('router.negativeKeywords')}
        values={action.rules?.negativeKeywords ?? []}
        readOnly={readOnly}
        onLines={(lines) => onChange((current) => withRule(current, 'negativeKeywords', lines))}
      />
      <TextField
        label={t('router.priority')}
        type="number"
        value={String(action.rules?.priority ?? 0)}
        readOnly={readOnly}
        onChange={(event) => {
          const priority = Number(event.target.value) || 0;
          onChange((current) => ({ ...current, rules: { ...(current.rules ?? {}), priority } }));
        }}
      />
      <TextAreaField
        label={t('router.slots')}
        hint={t('router.slotsHint')}
        error={slotsError}
        rows={6}
        className="code"
        value={slotsText}
        readOnly={readOnly}
        onChange={(event) => {
          const text = event.target.value;
          setSlotsText(text);
          try {
            const slots = JSON.parse(text) as unknown;
            if (!Array.isArray(slots)) throw new Error('[ … ]');
            setSlotsError(undefined);
            onChange((current) => ({ ...current, slots }));
          } catch (error) {
            setSlotsError(t('router.slotsInvalid', { message: (error as Error).message }));
          }
        }}
      />
      {readOnly ? null : (
        <button type="button" className="button-danger" onClick={onRemove}>
          {t('router.removeAction')}
        </button>
      )}
    </fieldset>
  );
}
