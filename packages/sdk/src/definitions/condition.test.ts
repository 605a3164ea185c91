import { describe, expect, it } from 'vitest';
import { type Condition, conditionSchema, evaluateCondition, fieldsOf } from './condition.js';

const state = { score: 7, review: { verdict: 'approve', notes: [] }, tags: ['urgent', 'billing'], title: 'Invoice 42 overdue' };

describe('the condition language of routes and loops', () => {
  it.each<[Condition, boolean]>([
    [{ field: 'score', greaterThanOrEqual: 7 }, true],
    [{ field: 'score', lessThan: 7 }, false],
    [{ field: 'review.verdict', equals: 'approve' }, true],
    [{ field: 'review.verdict', in: ['reject', 'revise'] }, false],
    [{ field: 'review.notes', isEmpty: true }, true],
    [{ field: 'tags', contains: 'billing' }, true],
    [{ field: 'tags.length', equals: 2 }, true],
    [{ field: 'title', matches: '\\d+ overdue$' }, true],
    [{ field: 'missing.deeper', exists: false }, true],
    [{ field: 'missing', greaterThan: 1 }, false],
    [{ all: [{ field: 'score', greaterThan: 5 }, { not: { field: 'tags', contains: 'spam' } }] }, true],
    [
      {
        any: [
          { field: 'score', greaterThan: 9 },
          { field: 'review.verdict', notEquals: 'approve' },
        ],
      },
      false,
    ],
  ])('%j is %s', (condition, expected) => {
    expect(conditionSchema.parse(condition)).toEqual(condition);
    expect(evaluateCondition(condition, state)).toBe(expected);
  });

  it('refuses a comparison without exactly one operator, and a pattern RE2 cannot compile', () => {
    expect(conditionSchema.safeParse({ field: 'score' }).success).toBe(false);
    expect(conditionSchema.safeParse({ field: 'score', equals: 1, lessThan: 3 }).success).toBe(false);
    expect(conditionSchema.safeParse({ field: 'title', matches: '(a' }).success).toBe(false);
    expect(conditionSchema.safeParse({ field: 'title', matches: '(a)\\1' }).success).toBe(false);
  });

  it('lists the fields a condition reads', () => {
    expect(fieldsOf({ all: [{ field: 'a.b', exists: true }, { not: { field: 'c', equals: 1 } }] })).toEqual(['a.b', 'c']);
  });
});
