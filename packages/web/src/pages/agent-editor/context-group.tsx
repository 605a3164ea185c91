import { TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { platformDefaults } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { DraftNumberField } from './number-field.js';

/** Context (P-4.2): history kept, compression trigger and the user's extra compression prompt. */
export function ContextGroup() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const t = useT();
  const setContext = (change: Partial<typeof draft.context>) =>
    update((current) => ({ ...current, context: { ...current.context, ...change } }));
  return (
    <div className="form-grid">
      <DraftNumberField
        label={t('context.history')}
        path="context.historyRuns"
        value={draft.context.historyRuns}
        defaultShown={String(platformDefaults.historyRuns)}
        onChange={(historyRuns) => setContext({ historyRuns })}
      />
      <DraftNumberField
        label={t('context.trigger')}
        path="context.compressionThreshold"
        value={draft.context.compressionThreshold}
        defaultShown={String(platformDefaults.compressionThreshold)}
        onChange={(compressionThreshold) => setContext({ compressionThreshold })}
      />
      <TextAreaField
        label={t('context.prompt')}
        rows={3}
        readOnly={readOnly}
        value={draft.context.compressionPrompt ?? ''}
        error={issueAt('context.compressionPrompt')}
        onChange={(event) => setContext({ compressionPrompt: event.target.value || undefined })}
      />
    </div>
  );
}
