/**
 * The `agentloom` command as it ships: `packages/platform/bin/agentloom.js`, which runs the built
 * JavaScript (`packages/platform/dist`, importing `packages/sdk/dist`) in its own process. The
 * process tests start it exactly as a supervisor would: one PID, the server itself.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `agentloom` executable of this checkout: run it with `node`. */
export const agentloomBin = fileURLToPath(new URL('../../packages/platform/bin/agentloom.js', import.meta.url));
const buildScript = fileURLToPath(new URL('../../packages/platform/scripts/build.js', import.meta.url));

let built = false;

/**
 * Builds the server when its build is missing or older than the sources (a test never runs old
 * code; nothing to do after `npm ci` or `npm run build`), once per test file. Parallel test files
 * take turns through the build script's lock.
 */
export function ensureBuilt(): void {
  if (built) return;
  const result = spawnSync(process.execPath, [buildScript, '--if-stale'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building the server failed:\n${result.stdout}${result.stderr}`);
  built = true;
}
