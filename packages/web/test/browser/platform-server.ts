import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { agentloomBin as cli, ensureBuilt } from '../../../../test/support/built-cli.js';

const webDirectory = fileURLToPath(new URL('../..', import.meta.url));

/** A running `agentloom serve` with its data directory and the first-start admin password. */
export interface RunningPlatform {
  url: string;
  adminEmail: string;
  adminPassword: string;
  stop(): Promise<void>;
}

/**
 * Builds the console from the current sources into a temp directory (so the test never checks
 * a stale `dist/`), so `agentloom serve` serves exactly this build.
 */
export async function buildConsole(): Promise<{ directory: string; remove(): void }> {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-console-'));
  await build({
    root: webDirectory,
    configFile: path.join(webDirectory, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: directory, emptyOutDir: true },
  });
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * Starts `agentloom serve` (the built CLI, a child process) on a free port with a fresh SQLite
 * data directory, serving the console from `consoleDirectory`, with `environment` added to its
 * environment (e.g. `AGENTLOOM_EMBEDDED_WORKERS: '0'`); resolves once it listens.
 */
export function startPlatform(consoleDirectory: string, environment: Record<string, string> = {}): Promise<RunningPlatform> {
  ensureBuilt();
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-console-data-'));
  const child: ChildProcess = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDirectory], {
    env: {
      ...process.env,
      AGENTLOOM_SECRET_KEY: '',
      AGENTLOOM_DATABASE_URL: '',
      AGENTLOOM_CONSOLE_DIR: consoleDirectory,
      AGENTLOOM_SEED_DEMO: 'false',
      AGENTLOOM_LOG_LEVEL: 'warn',
      // The tests' MCP and model servers listen on 127.0.0.1 (P-15.1: refused unless allowed).
      AGENTLOOM_OUTBOUND_ALLOW: '127.0.0.1',
      INIT_CWD: dataDirectory,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDirectory, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(check);
      void stop();
      reject(new Error(`agentloom serve did not start:\n${output}`));
    }, 60_000);
    const check = setInterval(() => {
      const url = /listening on (http:\/\/\S+) /.exec(output)?.[1];
      const password = /with password (\S+)/.exec(output)?.[1];
      if (url && password) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ url, adminEmail: 'admin@localhost', adminPassword: password, stop });
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`agentloom serve exited with ${code}:\n${output}`));
    });
  });
}
