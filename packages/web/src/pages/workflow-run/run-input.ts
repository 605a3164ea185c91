/**
 * The input of a workflow run as the run form checks it before sending (P-8.12): a JSON object
 * whose keys are state fields of the release's definition, each value of its field's JSON Schema
 * `type` when the field declares one. The platform checks it again; this only says early, at the
 * field, what it would refuse.
 */

import type { Translate } from '../../i18n/index.js';

/** What checking the typed text answered: the object to send, or why not. */
export type RunInputCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON type of a value, as JSON Schema names it. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonTypeOf(value);
  return types.some((expected) => expected === actual || (expected === 'number' && actual === 'integer'));
}

/** Checks `text` against the definition's state fields; `t` words the problem in the reader's language. */
export function checkRunInput(text: string, state: Record<string, unknown>, t: Translate): RunInputCheck {
  if (text.trim() === '') return { ok: false, message: t('workflowRun.input.empty') };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: t('workflow.json.invalid', { message: (error as Error).message }) };
  }
  if (!isRecord(parsed)) return { ok: false, message: t('workflowRun.input.notObject', { type: jsonTypeOf(parsed) }) };
  const fields = Object.keys(state);
  for (const [key, value] of Object.entries(parsed)) {
    const field = state[key];
    if (!isRecord(field))
      return {
        ok: false,
        message: t('workflowRun.input.unknownField', { key, fields: fields.join(', ') || t('workflow.none') }),
      };
    const schema = isRecord(field.schema) ? field.schema : {};
    if (schema.type !== undefined && !matchesType(value, schema.type))
      return {
        ok: false,
        message: t('workflowRun.input.wrongType', {
          key,
          expected: Array.isArray(schema.type)
            ? schema.type.map(String).reduce((first, second) => t('workflowRun.input.either', { first, second }))
            : String(schema.type),
          actual: jsonTypeOf(value),
        }),
      };
  }
  return { ok: true, value: parsed };
}

/**
 * A starting input for the form: an empty value of its type for the first state field no node
 * writes (the workflow's input, like `question`), else for the first state field.
 */
export function sampleInput(state: Record<string, unknown>, written: readonly string[] = []): string {
  const entries = Object.entries(state);
  const first = entries.find(([name]) => !written.includes(name)) ?? entries[0];
  if (!first) return '{}';
  const type = isRecord(first[1]) && isRecord(first[1].schema) ? first[1].schema.type : undefined;
  const empty = type === 'number' || type === 'integer' ? 0 : type === 'boolean' ? false : type === 'array' ? [] : '';
  return JSON.stringify({ [first[0]]: empty }, null, 2);
}
