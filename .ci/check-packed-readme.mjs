#!/usr/bin/env node
/**
 * Checks the SDK as a new user gets it (issue 18): packs `@agentloom/sdk` and `@agentloom/intent`
 * with `npm pack` (which builds `dist/` through `prepack`), installs the tarballs into a scratch
 * app outside the workspace, type-checks every ```ts block of README.md and the getting-started and SDK guides under `strict`, runs the
 * Quick start, and runs the packed `agentloom-intent eval` on the corpus it ships.
 * A README that drifts from the API, a package that ships without `dist/`, or an entry point that
 * needs a dev-only dependency at load time fails CI here.
 *
 * Snippets are checked one module each. Names a snippet uses but does not define (an agent's
 * tools, a store, a tracer) come from `.ci/readme-context.d.ts`, which declares them with the
 * SDK's own types; a snippet must import everything else it uses.
 *
 * Usage: node .ci/check-packed-readme.mjs [--keep]
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The Markdown files whose ```ts blocks a newcomer copies: each must type-check against the packages. */
const snippetFiles = ['README.md', 'docs/getting-started.md', 'docs/sdk-guide.md'];
const keep = process.argv.includes('--keep');
const scratch = mkdtempSync(join(tmpdir(), 'agentloom-readme-app-'));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** Exact versions the scratch app installs besides the SDK, taken from the workspace's own. */
function versionOf(name) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry) throw new Error(`${name} is not in package-lock.json`);
  return entry.version;
}

try {
  console.log(`== pack @agentloom/intent into ${scratch}`);
  const packedIntent = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], join(root, 'packages/intent')));
  const intentTarball = join(scratch, packedIntent[0].filename);
  const intentFiles = packedIntent[0].files.map((file) => file.path);
  for (const required of [
    'dist/index.js',
    'dist/index.d.ts',
    'bin/agentloom-intent.js',
    'schemas/intent-catalog.schema.json',
    'corpus/helpdesk.json',
  ]) {
    if (!intentFiles.includes(required)) throw new Error(`the packed intent package lacks ${required}`);
  }

  console.log(`== pack @agentloom/sdk into ${scratch}`);
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], join(root, 'packages/sdk')));
  const tarball = join(scratch, packed[0].filename);
  const files = packed[0].files.map((file) => file.path);
  for (const required of ['dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'dist/store/sqlite/index.js']) {
    if (!files.includes(required)) throw new Error(`the packed SDK lacks ${required}`);
  }

  const app = join(scratch, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'readme-app',
        private: true,
        type: 'module',
        dependencies: {
          '@agentloom/intent': `file:${intentTarball}`,
          '@agentloom/sdk': `file:${tarball}`,
          'better-sqlite3': versionOf('better-sqlite3'),
          pg: versionOf('pg'),
          zod: versionOf('zod'),
        },
        // The SQLite driver builds (or fetches) its native part at install.
        allowScripts: { 'better-sqlite3': true },
        devDependencies: {
          '@types/better-sqlite3': versionOf('@types/better-sqlite3'),
          '@types/node': versionOf('@types/node'),
          '@types/pg': versionOf('@types/pg'),
          typescript: versionOf('typescript'),
        },
      },
      null,
      2,
    )}\n`,
  );
  console.log('== install the tarball into a scratch app (no vitest)');
  run('npm', ['install', '--no-audit', '--no-fund'], app);

  // The README's first block is the Quick start (run below); the guides' blocks are checked too.
  const blocks = snippetFiles.flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/^( *)```ts\n([\s\S]*?)^\1```/gm)].map((match) =>
      match[2]
        .split('\n')
        .map((line) => line.slice(match[1].length))
        .join('\n'),
    ),
  );
  if (blocks.length === 0) throw new Error('README.md has no ```ts block');
  blocks.forEach((code, index) => {
    writeFileSync(join(app, `snippet-${index + 1}.ts`), `${code}\nexport {};\n`);
  });
  copyFileSync(join(root, '.ci/readme-context.d.ts'), join(app, 'readme-context.d.ts'));
  const compilerOptions = {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
  };
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify(
      { compilerOptions: { ...compilerOptions, noEmit: true }, include: ['snippet-*.ts', 'readme-context.d.ts'] },
      null,
      2,
    ),
  );
  console.log(`== type-check ${blocks.length} README snippets under strict`);
  run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], app);

  console.log('== run the Quick start');
  writeFileSync(
    join(app, 'tsconfig.quick-start.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: 'out' }, files: ['snippet-1.ts'] }, null, 2),
  );
  run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.quick-start.json'], app);
  const output = run('node', ['out/snippet-1.js'], app);
  process.stdout.write(output);
  if (!output.includes('run-finish')) throw new Error('the Quick start did not finish its run');

  console.log('== run the packed agentloom-intent eval on the corpus it ships');
  const evaluation = run(
    join(app, 'node_modules/.bin/agentloom-intent'),
    ['eval', join(app, 'node_modules/@agentloom/intent/corpus/helpdesk.json'), '--min-f1', '0.9', '--turns', 'none'],
    app,
  );
  process.stdout.write(`${evaluation.split('\n').slice(0, 3).join('\n')}\n`);
  console.log(
    `README check passed (${blocks.length} snippets of ${snippetFiles.join(', ')}; files in the package: ${files.length})`,
  );
} finally {
  if (keep) console.log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
  // `npm pack` ran `prepack`, which rebuilt packages/sdk/dist: harmless, and ignored by git.
}
