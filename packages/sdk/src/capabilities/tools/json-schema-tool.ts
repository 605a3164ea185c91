import { InvalidConfigurationError } from '../../core/errors/index.js';
import { compileJsonSchema, type JsonSchema, zodFromJsonSchema } from '../../core/json-schema/index.js';
import { type Tool, type ToolExecutionContext, tool } from './tool.js';

/** Options of `jsonSchemaTool()`: a tool whose parameters are a JSON Schema instead of a zod schema. */
export interface JsonSchemaToolOptions<Arguments> {
  /** Letters, digits, `_` and `-`, at most 64 characters (the common limit of model APIs). */
  name: string;
  /** What the tool does and when to use it; the model reads this. */
  description: string;
  /** A JSON Schema (2020-12) of the arguments, an object schema; the model sees exactly this. */
  parameters: JsonSchema;
  /** Runs the tool with arguments that matched `parameters` (checked by ajv before it runs). */
  execute(args: Arguments, context: ToolExecutionContext): Promise<unknown> | unknown;
}

/**
 * Defines a tool whose arguments are described by a JSON Schema: for tools that come as data (a
 * platform's tool catalogue, an OpenAPI operation, a definition file) rather than as code. The
 * model is shown the schema unchanged; arguments are validated against it with ajv before
 * `execute` runs, and a mismatch is an `invalid-arguments` failure like any tool's. A schema that
 * does not compile, or is not an object schema, fails here, where the tool is defined.
 *
 * @example
 * const lookup = jsonSchemaTool<{ city: string }>({
 *   name: 'weather',
 *   description: 'Current weather of a city.',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   execute: ({ city }) => fetchWeather(city),
 * });
 */
export function jsonSchemaTool<Arguments = Record<string, unknown>>(options: JsonSchemaToolOptions<Arguments>): Tool {
  const subject = `tool "${String((options as { name?: unknown })?.name)}"`;
  const parameters = options?.parameters as unknown;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    throw new InvalidConfigurationError(subject, [{ path: 'parameters', message: 'must be a JSON Schema object' }]);
  }
  const schema = parameters as JsonSchema;
  const compiled = compileJsonSchema(schema);
  const issues = compiled.ok ? [] : compiled.problems.map((message) => ({ path: 'parameters', message }));
  if (schema.type !== 'object') {
    issues.push({ path: 'parameters.type', message: 'must be "object": model APIs take tool arguments as an object' });
  }
  if (issues.length > 0) throw new InvalidConfigurationError(subject, issues);
  return tool({
    name: options.name,
    description: options.description,
    parameters: zodFromJsonSchema(schema),
    execute: (args, context) => options.execute(args as Arguments, context),
  });
}
