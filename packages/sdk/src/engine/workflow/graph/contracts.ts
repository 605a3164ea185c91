import { z } from 'zod';

/** A JSON Schema object, as zod writes it. */
type JsonSchema = Record<string, unknown>;

/** The result of comparing what one side produces with what the other accepts. */
export type ContractCheck = { ok: true } | { ok: false; expected: string; actual: string };

const cache = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

/**
 * The JSON Schema of a zod schema, for the side that produces (`output`) or accepts (`input`)
 * data. Cached per schema: a graph often binds one tool or field many times.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const cached = cache[io].get(schema);
  if (cached) return cached;
  let converted: JsonSchema;
  try {
    converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  } catch {
    converted = {};
  }
  cache[io].set(schema, converted);
  return converted;
}

/**
 * Whether data produced under schema `produced` can be accepted by schema `accepted`, judged on
 * JSON types, array items and required object properties (W-4 data contracts). It reports only
 * certain conflicts: where a schema says nothing (`{}`, custom types), it assumes they agree, and
 * run-time validation still applies.
 */
export function checkContract(produced: JsonSchema, accepted: JsonSchema): ContractCheck {
  const producedTypes = typesOf(produced);
  const acceptedTypes = typesOf(accepted);
  if (!producedTypes || !acceptedTypes) return { ok: true };
  const conflict = [...producedTypes].some(
    (type) => !(acceptedTypes.has(type) || (type === 'integer' && acceptedTypes.has('number'))),
  );
  if (conflict) return { ok: false, expected: describe(acceptedTypes), actual: describe(producedTypes) };
  if (producedTypes.size === 1 && producedTypes.has('array')) {
    const items = checkContract(asSchema(produced.items), asSchema(accepted.items));
    if (!items.ok) return { ok: false, expected: `array of ${items.expected}`, actual: `array of ${items.actual}` };
  }
  if (producedTypes.size === 1 && producedTypes.has('object')) return checkObject(produced, accepted);
  return { ok: true };
}

function checkObject(produced: JsonSchema, accepted: JsonSchema): ContractCheck {
  const producedProperties = asRecord(produced.properties);
  const acceptedProperties = asRecord(accepted.properties);
  const producedRequired = new Set(asStrings(produced.required));
  for (const name of asStrings(accepted.required)) {
    if (!producedRequired.has(name)) {
      return { ok: false, expected: `object with property "${name}"`, actual: 'object that may lack it' };
    }
  }
  for (const [name, schema] of Object.entries(acceptedProperties)) {
    const producedProperty = producedProperties[name];
    if (producedProperty === undefined) continue;
    const check = checkContract(asSchema(producedProperty), asSchema(schema));
    if (!check.ok) return { ok: false, expected: `${name}: ${check.expected}`, actual: `${name}: ${check.actual}` };
  }
  return { ok: true };
}

/** The JSON types a schema allows, or `undefined` when it does not say. */
function typesOf(schema: JsonSchema): Set<string> | undefined {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if ('const' in schema) return new Set([jsonTypeOf(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonTypeOf));
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches)) {
    const types = new Set<string>();
    for (const branch of branches) {
      const branchTypes = typesOf(asSchema(branch));
      if (!branchTypes) return undefined;
      for (const type of branchTypes) types.add(type);
    }
    return types;
  }
  return undefined;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describe(types: Set<string>): string {
  return [...types].sort().join(' | ');
}

function asSchema(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : {};
}

function asRecord(value: unknown): Record<string, unknown> {
  return asSchema(value);
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The JSON Schema of plain text, which an agent node produces and reads. */
export const TEXT_SCHEMA: JsonSchema = { type: 'string' };
