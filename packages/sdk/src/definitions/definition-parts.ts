import { z } from 'zod';
import { compileJsonSchema, type JsonSchema } from '../core/json-schema/index.js';

/** The version of the definition format this SDK reads and writes. A later SDK reads older versions. */
export const DEFINITION_FORMAT_VERSION = 1;

/** `formatVersion` of every definition: the format's version, so that stored definitions can be migrated. */
export const formatVersionSchema = z
  .literal(DEFINITION_FORMAT_VERSION, {
    error: `this SDK reads definition format version ${DEFINITION_FORMAT_VERSION}; migrate the definition or use a newer SDK`,
  })
  .describe('Version of the AgentLoom definition format; this SDK reads version 1.');

/** A name the registry resolves (a model, tool, skill, MCP server, hook, route …). */
export const referenceSchema = z
  .string()
  .min(1)
  .max(200)
  .describe('A name the registry passed to createAgent/createWorkflow resolves.');

/** A JSON Schema embedded in a definition; it must compile (checked with ajv). */
export const jsonSchemaValueSchema = z
  .record(z.string(), z.unknown())
  .superRefine((schema, context) => {
    const compiled = compileJsonSchema(schema as JsonSchema);
    if (!compiled.ok) {
      for (const problem of compiled.problems)
        context.addIssue({ code: 'custom', message: `not a valid JSON Schema: ${problem}` });
    }
  })
  .meta({ id: 'JsonSchema', description: 'A JSON Schema (draft 2020-12).' });

/** A JSON value (what a JSON file can hold). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Any JSON value, as written in a definition. */
export const jsonValueSchema = z.json().meta({ id: 'JsonValue', description: 'Any JSON value.' });
