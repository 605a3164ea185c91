/**
 * Compiles a TypeScript entry point of this repository into one ES module, so that test children
 * start with plain `node` instead of `node --import tsx`: tsx compiles the whole source tree at
 * every start (2–3 s on the CI machine), a bundle loads in well under a second. The crash,
 * takeover and process suites start hundreds of children, twice per CI run (Node 20 and 24).
 *
 * The repository's sources (the SDK and platform through the `@agentloom/source` condition) are
 * bundled: exactly the code tsx would run. Every npm dependency stays external and is resolved at
 * run time from `node_modules`, so the output file must live inside the repository.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every npm package any workspace manifest names (all dependency kinds), `@agentloom/*` excepted. */
function externalPackages(): string[] {
  const manifests = [path.join(root, 'package.json')];
  for (const folder of ['packages', 'examples']) {
    for (const entry of readdirSync(path.join(root, folder))) manifests.push(path.join(root, folder, entry, 'package.json'));
  }
  manifests.push(path.join(root, 'bench', 'package.json'));
  const names = new Set<string>();
  for (const manifest of manifests) {
    let parsed: Record<string, Record<string, string> | undefined>;
    try {
      parsed = JSON.parse(readFileSync(manifest, 'utf8'));
    } catch {
      continue;
    }
    for (const kind of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const name of Object.keys(parsed[kind] ?? {})) if (!name.startsWith('@agentloom/')) names.add(name);
    }
  }
  return [...names];
}

/** Bundles `entry` into `outfile` (an `.mjs` inside the repository); throws with esbuild's message if it fails. */
export function bundleScript(entry: string, outfile: string): void {
  const require = createRequire(import.meta.url);
  const esbuild = path.join(path.dirname(require.resolve('esbuild/package.json')), 'bin', 'esbuild');
  const result = spawnSync(
    esbuild,
    [
      entry,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--conditions=@agentloom/source',
      `--outfile=${outfile}`,
      '--log-level=error',
      ...externalPackages().flatMap((name) => [`--external:${name}`, `--external:${name}/*`]),
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`esbuild failed on ${entry}: ${result.stderr}`);
}
