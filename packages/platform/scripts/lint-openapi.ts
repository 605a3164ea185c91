/**
 * `npm run lint:openapi -w @agentloom/platform`: Redocly's recommended rules on the OpenAPI
 * document the platform serves (exported from the real app), printed as Redocly prints them; exits
 * non-zero on any error or warning. `test/openapi-lint.test.ts` runs the same check in `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Redocly's totals for a document, and what it printed. */
export interface LintResult {
  errors: number;
  warnings: number;
  output: string;
}

/**
 * Lints an OpenAPI document with Redocly CLI (the devDependency, no download), recommended rules,
 * telemetry and update checks off. `format: 'json'` answers the totals; `stylish` is for people.
 */
export function lintOpenApiDocument(document: unknown, format: 'json' | 'stylish' = 'json'): LintResult {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-openapi-lint-'));
  try {
    const file = path.join(directory, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const result = spawnSync(process.execPath, [cli, 'lint', file, '--extends=recommended', `--format=${format}`], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    if (format === 'stylish') return { errors: result.status === 0 ? 0 : -1, warnings: 0, output: result.stdout + result.stderr };
    const start = result.stdout.indexOf('{');
    if (start < 0) throw new Error(`redocly lint printed no report (exit ${result.status}): ${result.stderr}`);
    const report = JSON.parse(result.stdout.slice(start)) as { totals: { errors: number; warnings: number } };
    return { ...report.totals, output: result.stdout };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { exportOpenApiDocument } = await import('../src/cli/export-openapi.js');
  const document = await exportOpenApiDocument();
  const { errors, warnings } = lintOpenApiDocument(document);
  console.log(lintOpenApiDocument(document, 'stylish').output);
  console.log(`redocly lint (recommended): ${errors} errors, ${warnings} warnings`);
  process.exit(errors + warnings === 0 ? 0 : 1);
}
