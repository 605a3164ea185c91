import { FormattedMessage } from 'react-intl';
import { CheckboxField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { useEditor } from './editor-context.js';

/** Environment (P-4.2): the persistent-sandbox switch; the file root is fixed per agent by the platform. */
export function EnvironmentGroup() {
  const { draft, update, readOnly } = useEditor();
  const t = useT();
  return (
    <>
      <CheckboxField
        label={t('environment.persistent')}
        checked={draft.environment.persistentSandbox}
        disabled={readOnly}
        hint={t('environment.persistentHint')}
        onChange={(event) => update((current) => ({ ...current, environment: { persistentSandbox: event.target.checked } }))}
      />
      <p className="field-hint">
        <FormattedMessage id="environment.fileRoot" values={{ code: (text) => <code>{text}</code> }} />
      </p>
    </>
  );
}
