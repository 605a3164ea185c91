import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { useEditor } from './editor-context.js';

type Patterns = Record<string, string>;

const argumentName = /^[A-Za-z0-9_]{1,64}$/;

/**
 * A permission rule's argument patterns (N-1): each named argument of a call, as text, must match
 * its pattern (`*` and `?` wildcards) for the rule to match. Patterns are edited in place; a new
 * one is added by name, which is checked here first (the draft keys patterns by argument name, so
 * an empty or repeated name could not be held) — the server's own problems stand at each pattern.
 */
export function ArgumentPatterns({
  ruleNumber,
  issuePath,
  patterns,
  onChange,
}: {
  ruleNumber: number;
  issuePath: string;
  patterns: Patterns | undefined;
  onChange: (patterns: Patterns | undefined) => void;
}) {
  const t = useT();
  const { readOnly, issueAt } = useEditor();
  const [name, setName] = useState('');
  const [pattern, setPattern] = useState('');
  const [errors, setErrors] = useState<{ name?: string; pattern?: string }>({});
  const entries = Object.entries(patterns ?? {});
  const set = (next: Patterns) => onChange(Object.keys(next).length > 0 ? next : undefined);
  const add = () => {
    const found = {
      name: !argumentName.test(name)
        ? t('argumentPatterns.badName')
        : name in (patterns ?? {})
          ? t('argumentPatterns.repeated', { argument: name })
          : undefined,
      pattern: pattern.length === 0 ? t('argumentPatterns.missingPattern') : undefined,
    };
    setErrors(found);
    if (found.name || found.pattern) return;
    set({ ...(patterns ?? {}), [name]: pattern });
    setName('');
    setPattern('');
  };
  return (
    <fieldset className="fieldset">
      <legend>{t('argumentPatterns.legend', { number: ruleNumber })}</legend>
      <p className="field-hint">
        <FormattedMessage id="argumentPatterns.intro" values={{ code: (text) => <code>{text}</code> }} />
      </p>
      {entries.map(([argument, value]) => (
        <div className="form-grid" key={argument}>
          <TextField
            label={t('argumentPatterns.pattern', { number: ruleNumber, argument })}
            readOnly={readOnly}
            value={value}
            error={value.length === 0 ? t('argumentPatterns.emptyPattern') : issueAt(`${issuePath}.${argument}`)}
            onChange={(event) => set({ ...(patterns ?? {}), [argument]: event.target.value })}
          />
          {readOnly ? null : (
            <div className="button-row">
              <button
                type="button"
                className="button-danger"
                onClick={() => set(Object.fromEntries(entries.filter(([other]) => other !== argument)))}
              >
                {t('argumentPatterns.remove', { number: ruleNumber, argument })}
              </button>
            </div>
          )}
        </div>
      ))}
      {issueAt(issuePath) ? <p className="field-error">{issueAt(issuePath)}</p> : null}
      {readOnly ? null : (
        <div className="form-grid">
          <TextField
            label={t('argumentPatterns.newName', { number: ruleNumber })}
            value={name}
            error={errors.name}
            onValue={setName}
          />
          <TextField
            label={t('argumentPatterns.newPattern', { number: ruleNumber })}
            value={pattern}
            error={errors.pattern}
            onValue={setPattern}
          />
          <div className="button-row">
            <button type="button" onClick={add}>
              {t('argumentPatterns.add', { number: ruleNumber })}
            </button>
          </div>
        </div>
      )}
    </fieldset>
  );
}
