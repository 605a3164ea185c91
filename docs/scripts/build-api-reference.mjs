#!/usr/bin/env node
/**
 * Renders the HTTP API reference of the documentation site from the document the platform serves:
 * starts a throw-away platform (its built package, a temporary SQLite file, no workers, no demo),
 * asks it for `/api/v1/openapi.json` exactly as a client would, and has Redocly build one
 * self-contained HTML page from it (its script inlined: no CDN) into `public/api/index.html` (with the JSON beside it). The
 * reference can therefore never describe routes the server does not have.
 *
 * Usage: node scripts/build-api-reference.mjs (run by `npm run build` of @agentloom/docs)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPlatform, loadConfig } from '@agentloom/platform';

const docs = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(docs, 'public/api');
const dataDirectory = mkdtempSync(join(tmpdir(), 'agentloom-docs-'));
try {
  const config = loadConfig({
    AGENTLOOM_DATA_DIR: dataDirectory,
    AGENTLOOM_SEED_DEMO: 'false',
    AGENTLOOM_EMBEDDED_WORKERS: '0',
    AGENTLOOM_LOG_LEVEL: 'error',
  });
  const platform = await createPlatform({ config });
  let document;
  try {
    const response = await platform.app.request('/api/v1/openapi.json');
    if (response.status !== 200) throw new Error(`the platform answered ${response.status} for its OpenAPI document`);
    document = await response.json();
  } finally {
    await platform.close();
  }
  mkdirSync(output, { recursive: true });
  const documentFile = join(output, 'openapi.json');
  writeFileSync(documentFile, `${JSON.stringify(document, null, 2)}\n`);
  const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');
  execFileSync(
    process.execPath,
    [redocly, 'build-docs', documentFile, '--output', join(output, 'index.html'), '--inlineBundle'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  console.log(`API reference: ${Object.keys(document.paths ?? {}).length} paths into ${output}`);
} finally {
  rmSync(dataDirectory, { recursive: true, force: true });
}
