import { useState } from 'react';
import { CheckboxField, TextAreaField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { type AgentDraft, numberOrUndefined } from './draft-state.js';
import { useEditor } from './editor-context.js';

type Entry = NonNullable<AgentDraft['context']['entries']>[number];

/** Keywords as typed (commas and spaces kept while editing); the draft gets the non-empty ones. */
function KeywordsField({ label, value, onChange }: { label: string; value: string[]; onChange: (value: string[]) => void }) {
  const { readOnly } = useEditor();
  const [text, setText] = useState(value.join(', '));
  return (
    <TextField
      label={label}
      value={text}
      readOnly={readOnly}
      onChange={(event) => {
        setText(event.target.value);
        onChange(
          event.target.value
            .split(',')
            .map((word) => word.trim())
            .filter(Boolean),
        );
      }}
    />
  );
}

/**
 * Context entries (N-15): text added at the end of the context when it applies — always, or when
 * one of its keywords or its regular expression occurs in the last messages.
 */
export function ContextEntriesField() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const t = useT();
  const entries = draft.context.entries ?? [];
  const setEntries = (next: Entry[]) =>
    update((current) => ({ ...current, context: { ...current.context, entries: next.length > 0 ? next : undefined } }));
  const replace = (index: number, change: Partial<Entry>) =>
    setEntries(entries.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  return (
    <section className="card card-nested" aria-label={t('entries.legend')}>
      <h3>{t('entries.legend')}</h3>
      <p className="field-hint">{t('entries.hint')}</p>
      {entries.map((entry, index) => {
        const number = index + 1;
        const path = `context.entries.${index}`;
        return (
          <section
            key={`entry-${index.toString()}`}
            className="card card-nested"
            aria-label={t('entries.region', { id: entry.id })}
          >
            {issueAt(path) ? <p className="field-error">{issueAt(path)}</p> : null}
            <div className="form-grid">
              <TextField
                label={t('entries.id', { number })}
                value={entry.id}
                readOnly={readOnly}
                error={issueAt(`${path}.id`)}
                onChange={(event) => replace(index, { id: event.target.value })}
              />
              <CheckboxField
                label={t('entries.constant')}
                checked={entry.constant ?? false}
                disabled={readOnly}
                onChange={(event) => replace(index, { constant: event.target.checked || undefined })}
              />
              <KeywordsField
                label={t('entries.keywords', { number })}
                value={entry.keywords ?? []}
                onChange={(keywords) => replace(index, { keywords: keywords.length > 0 ? keywords : undefined })}
              />
              <TextField
                label={t('entries.pattern', { number })}
                value={entry.pattern ?? ''}
                readOnly={readOnly}
                error={issueAt(`${path}.pattern`)}
                onChange={(event) => replace(index, { pattern: event.target.value || undefined })}
              />
              <TextField
                label={t('entries.scan', { number })}
                inputMode="numeric"
                placeholder="4"
                value={entry.scanMessages ?? ''}
                readOnly={readOnly}
                error={issueAt(`${path}.scanMessages`)}
                onChange={(event) => replace(index, { scanMessages: numberOrUndefined(event.target.value) })}
              />
            </div>
            <TextAreaField
              label={t('entries.content', { number })}
              rows={2}
              value={entry.content}
              readOnly={readOnly}
              error={issueAt(`${path}.content`)}
              onChange={(event) => replace(index, { content: event.target.value })}
            />
            {readOnly ? null : (
              <button type="button" className="button-danger" onClick={() => setEntries(entries.filter((_, at) => at !== index))}>
                {t('entries.remove', { number })}
              </button>
            )}
          </section>
        );
      })}
      {readOnly ? null : (
        <button
          type="button"
          onClick={() => setEntries([...entries, { id: `entry-${entries.length + 1}`, content: '', constant: true }])}
        >
          {t('entries.add')}
        </button>
      )}
    </section>
  );
}
