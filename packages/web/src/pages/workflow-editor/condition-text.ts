/** The operators of a comparison of the SDK's condition language, in the order the editor offers them. */
export const operators = [
  'equals',
  'notEquals',
  'in',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
  'contains',
  'exists',
  'isEmpty',
  'matches',
] as const;
export type Operator = (typeof operators)[number];

const symbols: Record<Operator, string> = {
  equals: '=',
  notEquals: '≠',
  in: 'in',
  greaterThan: '>',
  greaterThanOrEqual: '≥',
  lessThan: '<',
  lessThanOrEqual: '≤',
  contains: 'contains',
  exists: 'exists',
  isEmpty: 'empty',
  matches: '~',
};

/**
 * A condition in a few symbols, for an arrow's label on the canvas: `decision = "approve"`,
 * `all(…)`; a named function by its name. Symbols and field names read the same in every language.
 */
export function conditionText(condition: unknown): string {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return '?';
  const record = condition as Record<string, unknown>;
  if (Array.isArray(record.all)) return `all(${record.all.map(conditionText).join(', ')})`;
  if (Array.isArray(record.any)) return `any(${record.any.map(conditionText).join(', ')})`;
  if ('not' in record) return `not(${conditionText(record.not)})`;
  if ('function' in record) return String(record.function);
  const operator = operators.find((name) => record[name] !== undefined);
  return operator ? `${String(record.field)} ${symbols[operator]} ${JSON.stringify(record[operator])}` : String(record.field);
}
