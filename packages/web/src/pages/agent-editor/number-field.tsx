import { TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { numberOrUndefined } from './draft-state.js';
import { useEditor } from './editor-context.js';

/**
 * A number of the draft: empty means the platform default, which the placeholder and the hint
 * show (P-4.1, P-4.7); the value is sent as typed so that the server explains a bad one here.
 */
export function DraftNumberField({
  label,
  path,
  value,
  defaultShown,
  onChange,
}: {
  label: string;
  path: string;
  value: number | undefined;
  defaultShown: string;
  onChange: (value: number | undefined) => void;
}) {
  const { readOnly, issueAt } = useEditor();
  const t = useT();
  return (
    <TextField
      label={label}
      inputMode="decimal"
      value={value === undefined || Number.isNaN(value) ? '' : String(value)}
      placeholder={defaultShown}
      readOnly={readOnly}
      hint={t('numberField.default', { value: defaultShown })}
      error={issueAt(path)}
      onChange={(event) => onChange(numberOrUndefined(event.target.value))}
    />
  );
}
