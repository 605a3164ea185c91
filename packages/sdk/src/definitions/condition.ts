import { RE2JS } from 're2js';
import { z } from 'zod';
import { type JsonValue, jsonValueSchema } from './definition-parts.js';

/**
 * A comparison of one state value: `field` is a dotted path whose first segment is a state field
 * (`review.score`, `analyses.length`), and exactly one operator says what must hold.
 */
export interface Comparison {
  field: string;
  equals?: JsonValue;
  notEquals?: JsonValue;
  in?: JsonValue[];
  greaterThan?: number;
  greaterThanOrEqual?: number;
  lessThan?: number;
  lessThanOrEqual?: number;
  /** A list holds this item, or a text holds this substring. */
  contains?: JsonValue;
  /** `true`: the value is set (neither missing nor null); `false`: it is not. */
  exists?: boolean;
  /** `true`: an empty text, list or object (or no value); `false`: the opposite. */
  isEmpty?: boolean;
  /** A regular expression (RE2 syntax: linear time, no back-references) the text must contain a match of. */
  matches?: string;
}

/** The declarative condition language of routes and loops: comparisons combined with all/any/not. */
export type Condition = Comparison | { all: Condition[] } | { any: Condition[] } | { not: Condition };

/** The operators of a comparison and their values: the one list the schema and its checks use. */
const operatorSchemas = {
  equals: jsonValueSchema.optional(),
  notEquals: jsonValueSchema.optional(),
  in: z.array(jsonValueSchema).optional(),
  greaterThan: z.number().optional(),
  greaterThanOrEqual: z.number().optional(),
  lessThan: z.number().optional(),
  lessThanOrEqual: z.number().optional(),
  contains: jsonValueSchema.optional(),
  exists: z.boolean().optional(),
  isEmpty: z.boolean().optional(),
  matches: z.string().optional(),
};
const operators = Object.keys(operatorSchemas) as (keyof typeof operatorSchemas)[];

const comparisonSchema = z
  .object({
    field: z
      .string()
      .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'a dotted path such as "review.score"')
      .describe('A dotted path; its first segment is a state field.'),
    ...operatorSchemas,
  })
  .strict()
  .superRefine((comparison, context) => {
    const present = operators.filter((operator) => comparison[operator] !== undefined);
    if (present.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `a comparison has exactly one operator (${operators.join(', ')}); found ${present.length === 0 ? 'none' : present.join(', ')}`,
      });
    }
    if (comparison.matches !== undefined) {
      try {
        RE2JS.compile(comparison.matches);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          path: ['matches'],
          message: `not a valid RE2 pattern: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
  });

/** The zod schema of a condition (recursive). */
export const conditionSchema: z.ZodType<Condition> = z
  .lazy(() =>
    z.union([
      z.object({ all: z.array(conditionSchema).min(1) }).strict(),
      z.object({ any: z.array(conditionSchema).min(1) }).strict(),
      z.object({ not: conditionSchema }).strict(),
      comparisonSchema,
    ]),
  )
  .meta({ id: 'Condition', description: 'A condition on the workflow state: a comparison, or all/any/not of conditions.' });

/** Every field path a condition reads, for checking them against the state before anything runs. */
export function fieldsOf(condition: Condition): string[] {
  if ('all' in condition) return condition.all.flatMap(fieldsOf);
  if ('any' in condition) return condition.any.flatMap(fieldsOf);
  if ('not' in condition) return fieldsOf(condition.not);
  return [condition.field];
}

/** Whether the condition holds on `state`. Pure and total: a missing value never throws. */
export function evaluateCondition(condition: Condition, state: Readonly<Record<string, unknown>>): boolean {
  if ('all' in condition) return condition.all.every((part) => evaluateCondition(part, state));
  if ('any' in condition) return condition.any.some((part) => evaluateCondition(part, state));
  if ('not' in condition) return !evaluateCondition(condition.not, state);
  return compare(condition, readPath(state, condition.field));
}

/** The value at a dotted path of the state (`length` of a text or list included); `undefined` when absent. */
export function readPath(state: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = state;
  for (const segment of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    if (segment === 'length' && (typeof value === 'string' || Array.isArray(value))) value = value.length;
    else if (typeof value === 'object' && Object.hasOwn(value, segment)) value = (value as Record<string, unknown>)[segment];
    else return undefined;
  }
  return value;
}

function compare(comparison: Comparison, value: unknown): boolean {
  if (comparison.equals !== undefined) return sameJson(value, comparison.equals);
  if (comparison.notEquals !== undefined) return !sameJson(value, comparison.notEquals);
  if (comparison.in !== undefined) return comparison.in.some((candidate) => sameJson(value, candidate));
  if (comparison.exists !== undefined) return (value !== undefined && value !== null) === comparison.exists;
  if (comparison.isEmpty !== undefined) return isEmpty(value) === comparison.isEmpty;
  if (comparison.contains !== undefined) {
    if (typeof value === 'string') return typeof comparison.contains === 'string' && value.includes(comparison.contains);
    return Array.isArray(value) && value.some((item) => sameJson(item, comparison.contains));
  }
  if (comparison.matches !== undefined) {
    return typeof value === 'string' && RE2JS.compile(comparison.matches).matcher(value).find();
  }
  if (typeof value !== 'number') return false;
  if (comparison.greaterThan !== undefined) return value > comparison.greaterThan;
  if (comparison.greaterThanOrEqual !== undefined) return value >= comparison.greaterThanOrEqual;
  if (comparison.lessThan !== undefined) return value < comparison.lessThan;
  if (comparison.lessThanOrEqual !== undefined) return value <= comparison.lessThanOrEqual;
  return false;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Deep equality of JSON values (object key order ignored). */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  return (
    leftKeys.length === Object.keys(right).length &&
    leftKeys.every((key) => Object.hasOwn(rightRecord, key) && sameJson((left as Record<string, unknown>)[key], rightRecord[key]))
  );
}
