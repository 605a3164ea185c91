import { useEffect, useState } from 'react';
import { TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

/**
 * The definition as JSON, editable: each edit that parses to an object replaces the definition
 * (and so the canvas); text that does not parse stays in the box with its error at the field and
 * changes nothing. A canvas edit rewrites the text.
 */
export function JsonView({
  definition,
  readOnly,
  onChange,
}: {
  definition: Record<string, unknown>;
  readOnly: boolean;
  onChange: (definition: Record<string, unknown>) => void;
}) {
  const t = useT();
  const pretty = JSON.stringify(definition, null, 2);
  const [text, setText] = useState(pretty);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    // The definition changed elsewhere (the canvas, an import): show it, unless the text already says the same.
    setText((current) => {
      try {
        return JSON.stringify(JSON.parse(current)) === JSON.stringify(definition) ? current : pretty;
      } catch {
        return current;
      }
    });
  }, [definition, pretty]);
  return (
    <TextAreaField
      label={t('workflow.json.label')}
      className="flow-json"
      rows={28}
      spellCheck={false}
      readOnly={readOnly}
      value={text}
      error={error}
      hint={t('workflow.json.hint')}
      onChange={(event) => {
        setText(event.target.value);
        try {
          const parsed: unknown = JSON.parse(event.target.value);
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            setError(t('workflow.json.notObject'));
            return;
          }
          setError(undefined);
          onChange(parsed as Record<string, unknown>);
        } catch (problem) {
          setError(t('workflow.json.invalid', { message: (problem as Error).message }));
        }
      }}
    />
  );
}
