import { z } from 'zod';

/**
 * Why `value` cannot serve as a schema of AgentLoom, or `undefined` when it is a zod 4 schema.
 * A zod 3 schema (the `zod` 3 package, or `zod/v3`) gets a message saying so: it has no
 * `_zod` internals, so it can neither validate through the zod 4 API nor become a JSON Schema
 * for the model, and without this check it would fail later with an obscure crash.
 */
export function zodSchemaProblem(value: unknown): string | undefined {
  if (value instanceof z.ZodType) return undefined;
  if (isZod3Schema(value)) {
    return 'is a zod 3 schema; AgentLoom needs a zod 4 schema (zod >= 4, `import { z } from "zod"`), or use jsonSchemaTool() with a JSON Schema';
  }
  if (typeof value === 'object' && value !== null && '_zod' in value) {
    return 'is a zod 4 schema from another copy of zod (or zod/mini); use the `zod` package AgentLoom resolves (one copy, `import { z } from "zod"`)';
  }
  return 'must be a zod 4 schema';
}

/** A zod 3 schema: `safeParse` and `_def` but none of zod 4's `_zod` internals. */
function isZod3Schema(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_def' in value &&
    !('_zod' in value) &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}
