import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { z } from 'zod';

/** A JSON Schema (draft 2020-12) as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** One place where a value does not match its JSON Schema. */
export interface JsonSchemaProblem {
  /** Where in the value, as path segments (array indexes are numbers). */
  path: (string | number)[];
  message: string;
}

/** A compiled JSON Schema, or why it cannot be compiled. */
export type CompiledJsonSchema =
  | { ok: true; validate: (value: unknown) => JsonSchemaProblem[] }
  | { ok: false; problems: string[] };

// `ajv-formats` is CommonJS: its plugin is the module itself or its `default`, depending on the loader.
const addFormats = ((ajvFormats as unknown as { default?: unknown }).default ?? ajvFormats) as (ajv: Ajv2020) => Ajv2020;

/**
 * One validator for the whole SDK: JSON Schema 2020-12, every error reported (not just the first),
 * standard formats (`email`, `date-time`, `uri`, …) checked. Unknown keywords and formats are
 * tolerated (not checked, not logged), since real schemas (MCP servers, model providers) carry
 * annotations of their own; a malformed schema (a wrong `type`, a bad `$ref`) is refused.
 */
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, validateFormats: true, logger: false }));
const compiled = new WeakMap<object, CompiledJsonSchema>();

/** Compiles a JSON Schema once (cached by identity); a schema that cannot compile reports why. */
export function compileJsonSchema(schema: JsonSchema): CompiledJsonSchema {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let result: CompiledJsonSchema;
  try {
    const validator: ValidateFunction = ajv.compile(stripIdentity(schema));
    result = {
      ok: true,
      validate: (value) => (validator(value) ? [] : (validator.errors ?? []).map(problemOf)),
    };
  } catch (error) {
    result = { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  }
  compiled.set(schema, result);
  return result;
}

/**
 * A zod schema that validates with the JSON Schema (through ajv) and renders back as the same JSON
 * Schema (`z.toJSONSchema`), so that the model, the workflow's data-contract checks and the
 * engine's validation all see one contract. Throws when the schema does not compile; call
 * `compileJsonSchema` first to report that as a problem instead.
 */
export function zodFromJsonSchema(schema: JsonSchema): z.ZodType {
  const compiledSchema = compileJsonSchema(schema);
  if (!compiledSchema.ok) throw new TypeError(`invalid JSON Schema: ${compiledSchema.problems.join('; ')}`);
  const { validate } = compiledSchema;
  return z
    .unknown()
    .superRefine((value, context) => {
      for (const problem of validate(value)) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    })
    .meta(stripIdentity(schema));
}

/** `$schema` and `$id` belong to a document, not to a schema embedded in another one. */
function stripIdentity(schema: JsonSchema): Record<string, unknown> {
  const { $schema: _schema, $id: _id, id: _legacyId, ...rest } = schema as Record<string, unknown>;
  return rest;
}

function problemOf(error: ErrorObject): JsonSchemaProblem {
  const path: (string | number)[] = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return { path, message: `unknown property "${String(params.additionalProperty)}"` };
  }
  if (error.keyword === 'required') return { path: [...path, String(params.missingProperty)], message: 'is required' };
  return { path, message: error.message ?? `fails "${error.keyword}"` };
}
