import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPrefix } from '../http/create-app.js';
import { createPlatform } from '../platform.js';

/**
 * The platform's OpenAPI document as the real app serves it at `/api/v1/openapi.json`, from a
 * throw-away platform on a temporary SQLite file (nothing listens, nothing is kept). The console's
 * type generator and `npm run lint:openapi` both start here, so they see the routes the server has.
 */
export async function exportOpenApiDocument(): Promise<Record<string, unknown>> {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-openapi-'));
  const platform = await createPlatform({
    config: {
      dataDirectory: directory,
      database: { dialect: 'sqlite', file: path.join(directory, 'platform.sqlite') },
      secretKey: 'openapi-export-only-key-never-used-for-data-0000',
      secretKeySource: 'environment',
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      bodyLimitBytes: 1_000_000,
      seedDemo: false,
      runLeaseMs: 30_000,
      workerConcurrency: 1,
      embeddedWorkers: 0,
      webhookRetryMs: 5_000,
      webhookAttempts: 10,
    },
  });
  try {
    const response = await platform.app.request(`${apiPrefix}/openapi.json`);
    if (!response.ok) throw new Error(`The platform answered ${response.status} for its OpenAPI document.`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await platform.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
