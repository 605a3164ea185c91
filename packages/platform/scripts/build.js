/**
 * Builds the server that `agentloom` runs (docs/decisions/0018-built-server.md): the SDK with its
 * own build (`npm run build --workspace=@agentloom/sdk`, `tsconfig.build.json`: JavaScript and
 * declarations, the same build its packed package ships) when that build is missing or stale, then
 * the platform with esbuild (under a second; `npm run typecheck` is what checks the types): its
 * modules file by file into `dist/` (the package's `exports`), and `dist/cli/agentloom.js`, the
 * command in one module with the SDK's build and its JavaScript dependencies, which
 * `bin/agentloom.js` runs.
 *
 *   node scripts/build.js              the SDK if stale, the platform always (`npm run build`)
 *   node scripts/build.js --if-stale   only what is missing or stale; nothing when up to date
 *                                      (`npm start` and the process tests run this first)
 *   node scripts/build.js --pack       `prepack`: builds if stale, then copies the web console's
 *                                      build into `console/`, which the packed package carries
 *
 * Parallel callers (two test files starting processes at once) take turns through a lock folder
 * and check again once they hold it; the platform's new `dist/` replaces the old by a rename.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builds, staleBuilds } from './build-state.js';

const platformRoot = fileURLToPath(new URL('..', import.meta.url));
const repositoryRoot = path.resolve(platformRoot, '../..');
const scratch = path.join(platformRoot, '.tmp');
const lock = path.join(scratch, 'build.lock');
const flags = new Set(process.argv.slice(2));

/** Every source file the platform's build transpiles: `src/**\/*.ts` without the tests. */
function platformSources(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : platformSources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

async function buildPlatform() {
  const { build } = await import('esbuild');
  const source = path.join(platformRoot, 'src');
  const output = path.join(scratch, `dist-${process.pid}`);
  const common = { platform: 'node', format: 'esm', target: 'node20.11', logLevel: 'error' };
  rmSync(output, { recursive: true, force: true });
  // The library (`exports`): each module as it is, its imports left to Node.
  await build({ ...common, entryPoints: platformSources(source), outdir: output, outbase: source });
  // The command: one module holding the platform, the SDK's build and every JavaScript dependency
  // (a Node 20 start loads 1,250 separate ES modules otherwise: most of its start-up time). The
  // native SQLite driver and pg's optional native binding stay packages; bundled CommonJS gets a
  // `require`. At `dist/cli/`, the depth of `src/cli/`, so module-relative paths hold.
  await build({
    ...common,
    entryPoints: [path.join(source, 'cli/main.ts')],
    outfile: path.join(output, 'cli/agentloom.js'),
    bundle: true,
    external: ['better-sqlite3', 'pg-native'],
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
  });
  rmSync(path.join(platformRoot, 'dist'), { recursive: true, force: true });
  renameSync(output, path.join(platformRoot, 'dist'));
}

function buildSdk() {
  const result = spawnSync('npm', ['run', 'build', '--silent', '--workspace=@agentloom/sdk'], {
    cwd: repositoryRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the SDK's build failed (exit ${result.status ?? result.signal})`);
}

/** Runs `work` holding the build lock; a lock left by a process that died is taken after 10 minutes. */
async function withLock(work) {
  mkdirSync(scratch, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 600_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Copies the console build (`packages/web/dist`) into `console/` for the packed package. */
function copyConsole() {
  const source = path.join(repositoryRoot, 'packages/web/dist');
  if (!existsSync(path.join(source, 'index.html')))
    throw new Error('the web console is not built (packages/web/dist): run `npm run build:console` first');
  const target = path.join(platformRoot, 'console');
  rmSync(target, { recursive: true, force: true });
  // What the console needs: not Vite's manifest nor the bundle-size report.
  const skipped = new Set(['.vite', 'bundle-size.json']);
  cpSync(source, target, { recursive: true, filter: (file) => !skipped.has(path.basename(file)) });
}

const onlyStale = flags.has('--if-stale') || flags.has('--pack');
if (!onlyStale || staleBuilds().length > 0) {
  await withLock(async () => {
    for (const { name } of builds) {
      // Judged again after each build: the platform's bundle holds the SDK's new output.
      const stale = staleBuilds().some((build) => build.name === name);
      if (!stale && (onlyStale || name !== '@agentloom/platform')) continue;
      const started = performance.now();
      if (name === '@agentloom/sdk') buildSdk();
      else await buildPlatform();
      console.error(`built ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  });
}
if (flags.has('--pack')) copyConsole();
