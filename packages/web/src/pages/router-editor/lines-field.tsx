import { useState } from 'react';
import { TextAreaField } from '../../components/index.js';
import { linesOf } from './catalog-model.js';

/**
 * A "one a line" text box: the typed text is kept as typed (an empty line while typing stays),
 * and every change reports the non-empty lines.
 */
export function LinesField({
  label,
  hint,
  values,
  readOnly,
  onLines,
}: {
  label: string;
  hint?: string;
  values: readonly string[];
  readOnly: boolean;
  onLines: (lines: string[]) => void;
}) {
  const [text, setText] = useState(values.join('\n'));
  return (
    <TextAreaField
      label={label}
      hint={hint}
      rows={Math.max(2, Math.min(8, values.length + 1))}
      value={text}
      readOnly={readOnly}
      onChange={(event) => {
        setText(event.target.value);
        onLines(linesOf(event.target.value));
      }}
    />
  );
}
