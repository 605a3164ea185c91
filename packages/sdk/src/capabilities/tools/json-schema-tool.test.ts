import { describe, expect, it } from 'vitest';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { jsonSchemaTool } from './json-schema-tool.js';
import { toToolDefinition } from './tool.js';

const parameters = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city'],
  additionalProperties: false,
};

describe('jsonSchemaTool', () => {
  it('shows the model its JSON Schema unchanged and validates arguments with it', async () => {
    const weather = jsonSchemaTool<{ city: string; days?: number }>({
      name: 'weather',
      description: 'Forecast of a city.',
      parameters,
      execute: ({ city, days }) => `${city}: ${days ?? 1} days`,
    });
    const definition = toToolDefinition(weather);
    const { $schema: _ignored, ...shown } = definition.inputSchema;
    expect(shown).toEqual(parameters);
    expect(weather.parameters.safeParse({ city: 'Oslo', days: 3 }).success).toBe(true);
    const refused = weather.parameters.safeParse({ city: 'Oslo', days: 9, unit: 'C' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toEqual(expect.arrayContaining(['days', '']));
    const context = {
      runId: 'r',
      sessionId: 's',
      taskId: 't',
      operationId: 'o',
      attempt: 1,
      signal: new AbortController().signal,
    };
    expect(await weather.execute({ city: 'Oslo' }, context)).toBe('Oslo: 1 days');
  });

  it('refuses, where it is defined, a schema that does not compile or is not an object schema', () => {
    const build = (schema: unknown) => () =>
      jsonSchemaTool({
        name: 'broken',
        description: 'Broken.',
        parameters: schema as Record<string, unknown>,
        execute: () => '',
      });
    expect(build({ type: 'object', properties: { a: { type: 'nope' } } })).toThrow(InvalidConfigurationError);
    expect(build({ type: 'string' })).toThrow(/must be "object"/);
    expect(build('not a schema')).toThrow(/JSON Schema object/);
  });
});
