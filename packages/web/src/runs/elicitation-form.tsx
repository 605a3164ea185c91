import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, queryKeys, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
import { useT } from '../i18n/index.js';
import type { ElicitationView } from './run-types.js';

/** One field of an MCP elicitation's requested schema (a flat object of primitives, MCP's restriction). */
interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const?: unknown; title?: string }[];
  items?: { enum?: unknown[]; anyOf?: { const?: unknown; title?: string }[] };
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
}

type Value = string | number | boolean | string[];

/** The options of a single- or multi-select field: `enum` (with `enumNames`) or `oneOf`/`anyOf` of `const`s with titles. */
function optionsOf(field: FieldSchema): { value: string; label: string }[] | undefined {
  const titled = field.oneOf ?? field.items?.anyOf;
  if (titled) return titled.map((option) => ({ value: String(option.const), label: option.title ?? String(option.const) }));
  const values = field.enum ?? field.items?.enum;
  return values?.map((value, index) => ({ value: String(value), label: field.enumNames?.[index] ?? String(value) }));
}

const inputTypeOf: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

/** The content to send: the filled fields, numbers as numbers; empty optional fields left out (the server's defaults apply). */
function contentOf(fields: [string, FieldSchema][], values: Record<string, Value | undefined>): Record<string, Value> {
  const content: Record<string, Value> = {};
  for (const [name, field] of fields) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    content[name] = (field.type === 'number' || field.type === 'integer') && typeof value === 'string' ? Number(value) : value;
  }
  return content;
}

/**
 * The form of an MCP server's question (ADR 0038), generated from its requested schema: a text
 * (or email, URL, date) box per string, a number box per number or integer, a checkbox per
 * boolean, a list per enum, checkboxes per multi-select; required fields marked. Send answer
 * accepts with the content (the server checks it against the schema and answers 422 with the
 * problems: the form does not validate on its own, the server is the one judge); Decline declines.
 * A URL question links to its page instead.
 */
export function ElicitationForm({ runId, question }: { runId: string; question: ElicitationView }) {
  const t = useT();
  const queryClient = useQueryClient();
  const formId = useId();
  const schema = question.requestedSchema ?? {};
  const fields = Object.entries((schema.properties ?? {}) as Record<string, FieldSchema>);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const [values, setValues] = useState<Record<string, Value | undefined>>(() =>
    Object.fromEntries(fields.map(([name, field]) => [name, field.default as Value | undefined])),
  );
  const answer = useMutation({
    mutationFn: (body: { action: 'accept' | 'decline'; content?: Record<string, Value> }) =>
      unwrap(
        api.POST('/runs/{runId}/elicitations/{elicitationId}', {
          params: { path: { runId, elicitationId: question.elicitationId } },
          body,
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.runView(runId) }),
  });
  const set = (name: string, value: Value | undefined) => setValues((current) => ({ ...current, [name]: value }));
  if (answer.isSuccess) return <p role="status">{t('input.sent')}</p>;
  const decline = (
    <button
      type="button"
      className="button-danger"
      disabled={answer.isPending}
      onClick={() => answer.mutate({ action: 'decline' })}
    >
      {t('elicitation.decline')}
    </button>
  );
  return (
    <form
      className="elicitation-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        answer.mutate({ action: 'accept', ...(question.mode === 'form' ? { content: contentOf(fields, values) } : {}) });
      }}
    >
      {question.mode === 'url' && question.url ? (
        <p>
          <a href={question.url} target="_blank" rel="noreferrer noopener">
            {t('elicitation.openUrl')}
          </a>
        </p>
      ) : null}
      {fields.map(([name, field]) => {
        const id = `${formId}-${name}`;
        const label = (
          <>
            {field.title ?? name} {required.has(name) ? <span className="field-hint">{t('elicitation.required')}</span> : null}
          </>
        );
        const options = optionsOf(field);
        const hint = field.description ? <p className="field-hint">{field.description}</p> : null;
        if (field.type === 'boolean')
          return (
            <div key={name} className="field">
              <label htmlFor={id}>
                <input
                  id={id}
                  type="checkbox"
                  checked={values[name] === true}
                  onChange={(event) => set(name, event.target.checked)}
                />{' '}
                {label}
              </label>
              {hint}
            </div>
          );
        if (field.type === 'array' && options) {
          const chosen = (values[name] as string[] | undefined) ?? [];
          return (
            <fieldset key={name} className="field">
              <legend>{label}</legend>
              {options.map((option) => (
                <label key={option.value}>
                  <input
                    type="checkbox"
                    checked={chosen.includes(option.value)}
                    onChange={(event) =>
                      set(name, event.target.checked ? [...chosen, option.value] : chosen.filter((item) => item !== option.value))
                    }
                  />{' '}
                  {option.label}
                </label>
              ))}
              {hint}
            </fieldset>
          );
        }
        return (
          <div key={name} className="field">
            <label htmlFor={id}>{label}</label>
            {options ? (
              <select
                id={id}
                value={String(values[name] ?? '')}
                required={required.has(name)}
                onChange={(event) => set(name, event.target.value === '' ? undefined : event.target.value)}
              >
                <option value="">{t('elicitation.choose')}</option>
                {options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                type={
                  field.type === 'number' || field.type === 'integer' ? 'number' : (inputTypeOf[field.format ?? ''] ?? 'text')
                }
                step={field.type === 'integer' ? 1 : field.type === 'number' ? 'any' : undefined}
                min={field.minimum}
                max={field.maximum}
                value={values[name] === undefined ? '' : String(values[name])}
                onChange={(event) => set(name, event.target.value)}
              />
            )}
            {hint}
          </div>
        );
      })}
      <div className="button-row">
        <button type="submit" className="button-primary" disabled={answer.isPending}>
          {question.mode === 'url' ? t('elicitation.acceptUrl') : t('input.send')}
        </button>
        {decline}
      </div>
      <ProblemAlert problem={answer.error} title={t('input.notRecorded')} />
    </form>
  );
}
