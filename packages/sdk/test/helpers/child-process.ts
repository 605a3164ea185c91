/**
 * Runs a TypeScript test script in a real child process and SIGKILLs it where it reports being
 * frozen (`FROZEN <label>` on stdout, then a synchronous wait), so that nothing happens between the
 * report and the kill. Lines `<KEY> <json>` on stdout are collected for the test.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '../../../../test/support/bundle-script.js';
import { RunOwnedElsewhereError } from '../../src/core/errors/index.js';

/** This test process's bundles, one per child script, removed when the process exits. */
const bundles = new Map<string, string>();
let bundleDirectory: string | undefined;

/**
 * The child script compiled once into one module (`test/support/bundle-script.ts`): a bundled
 * child starts in about a second, one run through tsx in two to three. The directory is inside
 * the package (npm dependencies resolve from node_modules) and readable by the sandbox user the
 * non-root tests switch to.
 */
export function bundledScript(script: string): string {
  let bundle = bundles.get(script);
  if (bundle) return bundle;
  if (!bundleDirectory) {
    const parent = fileURLToPath(new URL('../../.tmp/', import.meta.url));
    mkdirSync(parent, { recursive: true });
    // A test process that was killed left its bundles behind: drop those older than an hour.
    for (const name of readdirSync(parent)) {
      const old = join(parent, name);
      if (name.startsWith('children-') && Date.now() - statSync(old).mtimeMs > 3_600_000)
        rmSync(old, { recursive: true, force: true });
    }
    bundleDirectory = mkdtempSync(join(parent, 'children-'));
    chmodSync(parent, 0o755);
    chmodSync(bundleDirectory, 0o755);
    const directory = bundleDirectory;
    process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  }
  bundle = join(bundleDirectory, `${basename(script, '.ts')}-${bundles.size}.mjs`);
  bundleScript(script, bundle);
  bundles.set(script, bundle);
  return bundle;
}

/** What the child printed and how it ended. */
export interface ChildRun {
  frozenAt?: string;
  killed: boolean;
  /** The last value printed for each key (`RESULT {...}` → `values.RESULT`). */
  values: Record<string, unknown>;
  stderr: string;
}

/** How a spawned script ended. */
export interface ScriptExit {
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Spawns a TypeScript script of the repository (bundled, see `bundledScript`) with `environment` added to this process's, and
 * hands each line it prints to `onLine` together with a function that SIGKILLs it there (as `user`,
 * when given and this process may switch to it). The one
 * place that knows how test children are started; the harnesses decide what lines mean.
 */
export function spawnTestScript(
  script: string,
  environment: Record<string, string>,
  onLine: (line: string, kill: () => void) => void,
  user?: { uid: number; gid: number },
): Promise<ScriptExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundledScript(script)], {
      env: { ...process.env, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    const exit: ScriptExit = { exitCode: null, exitSignal: null, stderr: '' };
    const kill = () => child.kill('SIGKILL');
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        onLine(line, kill);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      exit.stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      exit.exitCode = code;
      exit.exitSignal = signal;
      resolve(exit);
    });
  });
}

/** Runs `script`, killing it where it reports `FROZEN <label>`, and collects its `<KEY> <json>` lines. */
export async function runScript(script: string, environment: Record<string, string>): Promise<ChildRun> {
  const outcome: ChildRun = { killed: false, values: {}, stderr: '' };
  const exit = await spawnTestScript(script, environment, (line, kill) => {
    if (line.startsWith('FROZEN ')) {
      outcome.frozenAt = line.slice('FROZEN '.length);
      outcome.killed = true;
      kill();
      return;
    }
    const match = /^([A-Z][A-Z-]*) (.*)$/.exec(line);
    if (match) outcome.values[match[1] as string] = JSON.parse(match[2] as string);
  });
  outcome.stderr = exit.stderr;
  return outcome;
}

/** For child scripts: reports the freeze point, then blocks this process until it is killed. */
export function freezeHere(label: string): void {
  process.stdout.write(`FROZEN ${label}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  throw new Error(`not killed at ${label}`);
}

/** For child scripts: prints a value for the parent. */
export function report(key: string, value: unknown): void {
  process.stdout.write(`${key} ${JSON.stringify(value)}\n`);
}

/**
 * For child scripts that resume a run: rethrows anything but `owned-elsewhere`, and otherwise
 * waits until the dead owner's lease has run out, so that the caller can try again.
 */
export async function waitOutOwner(error: unknown): Promise<void> {
  if (!RunOwnedElsewhereError.isInstance(error)) throw error;
  await new Promise((resolve) => setTimeout(resolve, Math.max(10, error.leaseExpiresAt - Date.now() + 10)));
}

/**
 * For tests that take a run over from a killed child: calls `resume` until it answers, waiting out
 * the dead owner's lease each time it is still held.
 */
export async function resumeAfterOwner<Result>(resume: () => Promise<Result>): Promise<Result> {
  for (;;) {
    try {
      return await resume();
    } catch (error) {
      await waitOutOwner(error);
    }
  }
}
