/**
 * `npm run api:generate`: regenerates `src/api/generated/platform-api.ts` from the platform's
 * OpenAPI document. Run it after changing a platform route; `test/api-types.test.ts` fails until
 * you do.
 */
import { writeFileSync } from 'node:fs';
import { exportOpenApiDocument, generateApiTypes, generatedTypesFile } from './api-types.js';

const source = await generateApiTypes(await exportOpenApiDocument());
writeFileSync(generatedTypesFile, source);
console.log(`Wrote ${generatedTypesFile} (${source.length} characters).`);
