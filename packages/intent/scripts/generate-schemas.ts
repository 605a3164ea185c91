/**
 * Writes the JSON Schema files of the intent formats into `packages/intent/schemas/`
 * (`npm run schemas --workspace=@agentloom/intent`). `test/schemas.test.ts` fails when they are stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderIntentSchemas } from '../src/schemas/index.js';

const directory = fileURLToPath(new URL('../schemas/', import.meta.url));
mkdirSync(directory, { recursive: true });
for (const [name, text] of Object.entries(renderIntentSchemas())) {
  writeFileSync(`${directory}${name}`, text);
  console.log(`wrote schemas/${name}`);
}
