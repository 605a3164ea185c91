/**
 * Writes the JSON Schema files of the definition format into `packages/sdk/schemas/`
 * (`npm run schemas`). The test `definition-json-schemas.test.ts` fails when they are stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderDefinitionSchemas } from '../src/definitions/definition-json-schemas.js';

const directory = fileURLToPath(new URL('../schemas/', import.meta.url));
mkdirSync(directory, { recursive: true });
for (const [name, text] of Object.entries(renderDefinitionSchemas())) {
  writeFileSync(`${directory}${name}`, text);
  console.log(`wrote schemas/${name}`);
}
