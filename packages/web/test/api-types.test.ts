import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportOpenApiDocument, generateApiTypes, generatedTypesFile } from '../scripts/api-types.js';

describe('the generated API client types', () => {
  it('match the OpenAPI document the platform serves now (run `npm run api:generate` when this fails)', async () => {
    const expected = await generateApiTypes(await exportOpenApiDocument());
    const checkedIn = readFileSync(generatedTypesFile, 'utf8');
    expect(
      checkedIn === expected,
      'src/api/generated/platform-api.ts is stale: run `npm run api:generate --workspace=@agentloom/web`',
    ).toBe(true);
  });
});
