/**
 * Writes the JSON Schema files of the definition format and of the run events into
 * `packages/sdk/schemas/` (`npm run schemas`). The tests `definition-json-schemas.test.ts` and
 * `run-event-schema.test.ts` fail when they are stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderRunEventSchema } from '../src/client/run-event-schema.js';
import { renderDefinitionSchemas } from '../src/definitions/definition-json-schemas.js';

const directory = fileURLToPath(new URL('../schemas/', import.meta.url));
mkdirSync(directory, { recursive: true });
const files = { ...renderDefinitionSchemas(), 'run-event.schema.json': renderRunEventSchema() };
for (const [name, text] of Object.entries(files)) {
  writeFileSync(`${directory}${name}`, text);
  console.log(`wrote schemas/${name}`);
}
