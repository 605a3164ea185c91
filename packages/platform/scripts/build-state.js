/**
 * Whether the built server of this checkout is there and up to date: `packages/sdk/dist` (the
 * SDK's JavaScript) and `packages/platform/dist` (the platform's, with the command bundled with the
 * SDK's build). A build is stale when a source file that goes into it is newer than its output, so a
 * checkout that pulled or edited sources never runs old code without saying so.
 *
 * No dependencies: `bin/agentloom.js` imports it at every start from a checkout (a few
 * milliseconds: one `stat` per source file). A packed install has no sources and skips it.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const platformRoot = fileURLToPath(new URL('..', import.meta.url));
const repositoryRoot = path.resolve(platformRoot, '../..');

/**
 * The two builds, in the order they must be made (the platform's command bundles the SDK's
 * output). Inputs are what each build reads (`package-lock.json` standing for `node_modules`);
 * `output` is a file the build writes.
 */
export const builds = [
  {
    name: '@agentloom/sdk',
    directory: path.join(repositoryRoot, 'packages/sdk'),
    output: 'dist/index.js',
    inputs: ['packages/sdk/src', 'packages/sdk/tsconfig.build.json', 'tsconfig.base.json'],
  },
  {
    name: '@agentloom/platform',
    directory: platformRoot,
    output: 'dist/cli/agentloom.js',
    // The command's bundle holds the SDK's build and the installed dependencies too.
    inputs: ['packages/platform/src', 'packages/platform/scripts/build.js', 'packages/sdk/dist/index.js', 'package-lock.json'],
  },
];

/** Test files and fixtures under `src` are not built: changing them does not make a build stale. */
function isBuilt(name) {
  return !name.endsWith('.test.ts') && name !== '__fixtures__';
}

/** The newest file under `target` (a file or a folder): `{ file, time }`, time in ms since the epoch. */
function newestFile(target) {
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return { file: target, time: 0 };
  if (!info.isDirectory()) return { file: target, time: info.mtimeMs };
  let newest = { file: target, time: 0 };
  for (const entry of readdirSync(target)) {
    if (!isBuilt(entry)) continue;
    const candidate = newestFile(path.join(target, entry));
    if (candidate.time > newest.time) newest = candidate;
  }
  return newest;
}

/**
 * The builds that must be made again, in build order, each with the reason (its output is
 * missing, or names the newest source file changed since). Empty when everything is up to date.
 * The platform's build counts the SDK's output among its inputs: it is stale once the SDK is rebuilt.
 */
export function staleBuilds() {
  const stale = [];
  for (const build of builds) {
    const output = statSync(path.join(build.directory, build.output), { throwIfNoEntry: false });
    if (!output) {
      stale.push({ ...build, reason: `${path.relative(repositoryRoot, path.join(build.directory, build.output))} is missing` });
      continue;
    }
    for (const input of build.inputs) {
      const newest = newestFile(path.join(repositoryRoot, input));
      if (newest.time > output.mtimeMs) {
        stale.push({ ...build, reason: `${path.relative(repositoryRoot, newest.file)} changed since the build` });
        break;
      }
    }
  }
  return stale;
}

/** One sentence for a person when the checkout's build is missing or stale, else `undefined`. */
export function buildProblem() {
  const stale = staleBuilds();
  if (stale.length === 0) return undefined;
  return `the built server is not up to date (${stale[0].reason}): run \`npm run build\` in ${repositoryRoot} (\`npm ci\` runs it too), or \`npm start\`, which builds what changed first.`;
}
