import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileJsonSchema, zodFromJsonSchema } from './index.js';

const person = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
  additionalProperties: false,
};

describe('JSON Schema validation', () => {
  it('reports every problem with its path', () => {
    const compiled = compileJsonSchema(person);
    if (!compiled.ok) throw new Error('did not compile');
    const problems = compiled.validate({ email: 'not-an-email', tags: ['a', 3], extra: true });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: ['name'], message: 'is required' },
        { path: [], message: 'unknown property "extra"' },
        { path: ['email'], message: expect.stringContaining('email') },
        { path: ['tags', 1], message: 'must be string' },
      ]),
    );
    expect(compiled.validate({ name: 'Ada', email: 'ada@example.com' })).toEqual([]);
  });

  it('refuses a schema that does not compile, tolerates annotations it does not know', () => {
    expect(compileJsonSchema({ type: 'strin' }).ok).toBe(false);
    expect(compileJsonSchema({ $ref: '#/$defs/missing' }).ok).toBe(false);
    expect(compileJsonSchema({ type: 'string', 'x-vendor': true }).ok).toBe(true);
  });

  it('gives a zod schema that validates with ajv and renders as the same JSON Schema', () => {
    const schema = zodFromJsonSchema(person);
    expect(schema.safeParse({ name: 'Ada' }).success).toBe(true);
    const failed = schema.safeParse({ name: '' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['name']);
    const rendered = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    const { $schema: _ignored, ...original } = person;
    expect({ ...rendered, $schema: undefined }).toEqual({ ...original, $schema: undefined });
  });
});
