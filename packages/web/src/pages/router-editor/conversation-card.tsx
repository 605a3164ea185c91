import { TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { type RouterCatalog, withConversationKeywords } from './catalog-model.js';
import { LinesField } from './lines-field.js';

/** The commands that belong to no action — cancel, chit-chat, hand-off — by keyword, and the similarity threshold. */
export function ConversationCard({
  catalog,
  readOnly,
  onChange,
}: {
  catalog: RouterCatalog;
  readOnly: boolean;
  onChange: (change: (catalog: RouterCatalog) => RouterCatalog) => void;
}) {
  const t = useT();
  const keywords = (kind: 'cancel' | 'chitChat' | 'handOff') => catalog.conversation?.[kind]?.rules?.keywords ?? [];
  return (
    <fieldset className="card card-nested">
      <legend>{t('router.conversation')}</legend>
      <LinesField
        label={t('router.cancelKeywords')}
        values={keywords('cancel')}
        readOnly={readOnly}
        onLines={(lines) => onChange((current) => withConversationKeywords(current, 'cancel', lines))}
      />
      <LinesField
        label={t('router.chitChatKeywords')}
        values={keywords('chitChat')}
        readOnly={readOnly}
        onLines={(lines) => onChange((current) => withConversationKeywords(current, 'chitChat', lines))}
      />
      <LinesField
        label={t('router.handOffKeywords')}
        values={keywords('handOff')}
        readOnly={readOnly}
        onLines={(lines) => onChange((current) => withConversationKeywords(current, 'handOff', lines))}
      />
      <TextField
        label={t('router.threshold')}
        hint={t('router.thresholdHint')}
        type="number"
        min={0}
        max={1}
        step={0.05}
        value={String(catalog.similarity?.threshold ?? 0.75)}
        readOnly={readOnly}
        onChange={(event) => {
          const threshold = Number(event.target.value);
          onChange((current) => ({ ...current, similarity: { ...(current.similarity ?? {}), threshold } }));
        }}
      />
    </fieldset>
  );
}
