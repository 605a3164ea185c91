import { useId } from 'react';
import { SelectField, TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import type { PromptSource } from './draft-state.js';
import { useEditor } from './editor-context.js';

/**
 * A prompt: written inline, or a shared prompt resource (reused, not copied, P-4.5; its newest
 * version is pinned when the agent is published).
 */
export function PromptSourceField({
  legend,
  path,
  value,
  onChange,
}: {
  legend: string;
  path: string;
  value: PromptSource | undefined;
  onChange: (value: PromptSource | undefined) => void;
}) {
  const { resources, readOnly, issueAt } = useEditor();
  const t = useT();
  const name = useId();
  const prompts = resources.filter((resource) => resource.type === 'prompt');
  const shared = value !== undefined && 'resourceId' in value;
  return (
    <fieldset className="fieldset">
      <legend>{legend}</legend>
      <div className="radio-row">
        <label>
          <input type="radio" name={name} checked={!shared} disabled={readOnly} onChange={() => onChange(undefined)} />{' '}
          {t('promptSource.writeHere')}
        </label>
        <label>
          <input
            type="radio"
            name={name}
            checked={shared}
            disabled={readOnly || prompts.length === 0}
            onChange={() => onChange({ resourceId: prompts[0]?.id ?? '' })}
          />{' '}
          {t('promptSource.shared')}
          {prompts.length === 0 ? t('promptSource.noneYet') : ''}
        </label>
      </div>
      {shared ? (
        <SelectField
          label={t('promptSource.sharedLabel', { legend })}
          value={value.resourceId}
          disabled={readOnly}
          onChange={(event) => onChange({ resourceId: event.target.value })}
          error={issueAt(path)}
        >
          {prompts.map((prompt) => (
            <option key={prompt.id} value={prompt.id}>
              {t('promptSource.option', { name: prompt.name, version: prompt.latestVersion })}
            </option>
          ))}
        </SelectField>
      ) : (
        <TextAreaField
          label={t('promptSource.textLabel', { legend })}
          rows={5}
          value={value && 'text' in value ? value.text : ''}
          readOnly={readOnly}
          onChange={(event) => onChange(event.target.value ? { text: event.target.value } : undefined)}
          error={issueAt(path)}
        />
      )}
    </fieldset>
  );
}
