import { z } from 'zod';
import { intentCatalogSchema } from '../catalog/catalog-schema.js';
import { commandSchema } from '../commands/command.js';
import { corpusSchema } from '../evaluation/corpus-schema.js';

/**
 * The published JSON Schema files of the package, by file name, as committed in
 * `packages/intent/schemas/` (`npm run schemas --workspace=@agentloom/intent` writes them; a test
 * checks they are up to date). They describe the input form (defaults optional). What JSON
 * Schema cannot say (unique references, patterns RE2 compiles) `compileCatalog` checks.
 */
export function renderIntentSchemas(): Record<string, string> {
  const render = (schema: z.ZodType) =>
    `${JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }), null, 2)}\n`;
  return {
    'intent-catalog.schema.json': render(intentCatalogSchema),
    'intent-commands.schema.json': render(z.array(commandSchema)),
    'intent-corpus.schema.json': render(corpusSchema),
  };
}
