import { useId, useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import {
  type Condition,
  conditionProblems,
  type FieldProblem,
  type Operator,
  operators,
  operatorValueKind,
} from './flow-model.js';

/** A comparison's value typed as text: JSON when it parses (`3`, `true`, `["a"]`), else the text itself. */
function parseValue(text: string, kind: ReturnType<typeof operatorValueKind>): unknown {
  if (kind === 'text') return text;
  if (kind === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A value shown as text in its field (a string as itself, anything else as JSON). */
const valueText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/**
 * One condition of a route branch or a loop (the SDK's declarative condition language), edited at
 * the field: a comparison as a state path, an operator and a value; a compound condition (all /
 * any / not) as JSON. Each field shows its problem — the editor's own check (`conditionProblems`)
 * or the server's issue at that path (`serverIssues`, keyed by path under the condition).
 */
export function ConditionFields({
  condition,
  stateFields,
  serverIssues,
  readOnly,
  onChange,
}: {
  condition: unknown;
  stateFields: readonly string[];
  serverIssues: ReadonlyMap<string, string[]>;
  readOnly: boolean;
  onChange: (condition: Condition) => void;
}) {
  const t = useT();
  const listId = useId();
  const record = (typeof condition === 'object' && condition !== null ? condition : {}) as Record<string, unknown>;
  const compound = 'all' in record || 'any' in record || 'not' in record;
  const problems = conditionProblems(condition, stateFields);
  const say = (problem: FieldProblem | undefined) => (problem ? t(problem.id, problem.values) : undefined);
  /** The editor's problem at `path`, else the server's issues there. */
  const errorAt = (path: string, ...serverPaths: string[]) =>
    say(problems.get(path)) ?? (serverPaths.flatMap((serverPath) => serverIssues.get(serverPath) ?? []).join('; ') || undefined);
  const operator = operators.find((name) => record[name] !== undefined) ?? 'equals';
  const kind = operatorValueKind(operator);
  const [text, setText] = useState(valueText(record[operator]));
  const [json, setJson] = useState(JSON.stringify(condition, null, 2));
  const [jsonError, setJsonError] = useState<string | undefined>();
  const field = typeof record.field === 'string' ? record.field : '';
  const compoundProblems = [...problems.values()].map(say).join('; ');
  return (
    <div className="flow-condition">
      <SelectField
        label={t('flow.condition.form')}
        value={compound ? 'compound' : 'comparison'}
        disabled={readOnly}
        onChange={(event) => {
          const next: Condition =
            event.target.value === 'compound' ? { all: [{ field, equals: record[operator] ?? '' }] } : { field, equals: '' };
          setJson(JSON.stringify(next, null, 2));
          setText('');
          onChange(next);
        }}
      >
        <option value="comparison">{t('flow.condition.comparison')}</option>
        <option value="compound">{t('flow.condition.compound')}</option>
      </SelectField>
      {compound ? (
        <TextAreaField
          label={t('flow.condition.json')}
          rows={6}
          spellCheck={false}
          readOnly={readOnly}
          value={json}
          hint={t('flow.condition.jsonHint')}
          error={jsonError ?? (compoundProblems || serverIssues.get('')?.join('; ') || undefined)}
          onChange={(event) => {
            setJson(event.target.value);
            try {
              const parsed: unknown = JSON.parse(event.target.value);
              setJsonError(undefined);
              onChange(parsed as Condition);
            } catch {
              setJsonError(t('flow.condition.jsonInvalid'));
            }
          }}
        />
      ) : (
        <>
          <TextField
            label={t('flow.condition.field')}
            hint={t('flow.condition.fieldHint')}
            list={listId}
            readOnly={readOnly}
            value={field}
            error={errorAt('field', 'field', '')}
            onChange={(event) =>
              onChange({ ...withoutOperators(record), field: event.target.value, [operator]: record[operator] })
            }
          />
          <datalist id={listId}>
            {stateFields.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          <SelectField
            label={t('flow.condition.operator')}
            value={operator}
            disabled={readOnly}
            error={errorAt('operator')}
            onChange={(event) => {
              const next = event.target.value as Operator;
              const nextKind = operatorValueKind(next);
              const value = nextKind === 'boolean' ? true : parseValue(text, nextKind);
              if (nextKind === 'boolean') setText('true');
              onChange({ ...withoutOperators(record), field, [next]: value });
            }}
          >
            {operators.map((name) => (
              <option key={name} value={name}>
                {t(`flow.operator.${name}`)}
              </option>
            ))}
          </SelectField>
          {kind === 'boolean' ? (
            <SelectField
              label={t('flow.condition.value')}
              value={String(record[operator] === true)}
              disabled={readOnly}
              error={errorAt('value', operator)}
              onChange={(event) => onChange({ ...withoutOperators(record), field, [operator]: event.target.value === 'true' })}
            >
              <option value="true">{t('flow.condition.true')}</option>
              <option value="false">{t('flow.condition.false')}</option>
            </SelectField>
          ) : (
            <TextField
              label={t('flow.condition.value')}
              hint={t(`flow.condition.valueHint.${kind}`)}
              readOnly={readOnly}
              value={text}
              error={errorAt('value', operator)}
              onChange={(event) => {
                setText(event.target.value);
                onChange({ ...withoutOperators(record), field, [operator]: parseValue(event.target.value, kind) });
              }}
            />
          )}
        </>
      )}
    </div>
  );
}

/** A comparison without its operator (to set another). */
function withoutOperators(record: Record<string, unknown>): Record<string, unknown> & { field: string } {
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => !(operators as readonly string[]).includes(key)));
  return { ...rest, field: typeof rest.field === 'string' ? rest.field : '' };
}
