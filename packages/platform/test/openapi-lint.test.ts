import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintOpenApiDocument } from '../scripts/lint-openapi.js';
import { createTestPlatform, type TestPlatform } from './harness.js';

/**
 * Redocly's recommended rules find nothing in the served document (issue 30: operation ids, tags,
 * summaries, 4xx responses, no unused components, a licence): a client generator can use it.
 */
describe('the served OpenAPI document under Redocly lint', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform('sqlite');
  });
  afterAll(() => platform.destroy());

  it('has no errors and no warnings with the recommended rules', async () => {
    const response = await platform.app.request('/api/v1/openapi.json');
    const result = lintOpenApiDocument(await response.json());
    expect({ errors: result.errors, warnings: result.warnings }, result.output).toEqual({ errors: 0, warnings: 0 });
  });

  it('reports a warning once the document loses what a generator needs (an operation id)', async () => {
    const document = (await (await platform.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const login = document.paths['/auth/login']?.post;
    if (login) delete login.operationId;
    expect(lintOpenApiDocument(document).warnings).toBe(1);
  });
});
