import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Suites that must not share the machine with other suites: their checks depend on timing that a
 * second busy worker can stretch (a private PostgreSQL cluster restarted every 150 ms, worker
 * processes racing for leases, dozens of child processes renewing 300 ms leases at once). They run
 * after everything else, one file at a time.
 */
const exclusive = [
  'packages/sdk/test/crash/crash-recovery.int.test.ts',
  'packages/sdk/test/crash/team-crash.int.test.ts',
  'packages/sdk/test/faults/postgres-faults.int.test.ts',
  'packages/platform/test/*-trials.int.test.ts',
];

/**
 * `AGENTLOOM_RUNTIME_STAGE=1` runs only what can differ between Node versions: CI's Node 24 stage
 * sets it (ADR 0011, last revision). It leaves out the console's Chromium suites (their checks run
 * in the browser), the source checks under `test/` (dependency rules, file sizes, links), and the
 * platform's suites but those below, which reach the runtime beyond the SDK's own suites: the built
 * server, HTTP and SSE through Node's server, worker processes SIGKILLed and taken over, pg-boss,
 * outbound requests through undici and the egress policy, scrypt, the official A2A client, MCP
 * servers in and out of the sandbox. The SDK's, the intent layer's and the examples' suites all run.
 */
const runtimeStage = process.env.AGENTLOOM_RUNTIME_STAGE === '1';
const platformRuntimeSuites = [
  'serve.int',
  'runs',
  'demo-crash.int',
  'dispatcher',
  'worker-capabilities',
  'egress-allowed',
  'egress-denied',
  'outbound-module',
  'webhooks',
  'identity',
  'a2a-interop.int',
  'mcp-servers',
  'mcp-stdio-sandbox',
  'body-limit',
  'event-stream',
].map((name) => `packages/platform/test/${name}.test.ts`);
const sourceChecks = ['**/*.browser.test.ts', 'test/**'];

/** In the runtime stage, the platform suites outside `platformRuntimeSuites`, found by listing the folder. */
function platformSuitesLeftOut(): string[] {
  if (!runtimeStage) return [];
  const folder = 'packages/platform/test';
  return readdirSync(new URL(`./${folder}`, import.meta.url))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${folder}/${file}`)
    .filter((path) => !platformRuntimeSuites.includes(path));
}
const leftOut = runtimeStage ? [...sourceChecks, ...platformSuitesLeftOut()] : [];

export default defineConfig({
  resolve: { conditions: ['@agentloom/source'] },
  ssr: { resolve: { conditions: ['@agentloom/source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          // Unit tests beside their sources: no child process, server or database file outlives a
          // test, so they share one module graph per worker instead of loading theirs per file
          // (import time was two thirds of the SDK's 92 files' wall time: 57 s -> 22 s a run). A
          // test that leaves global state behind belongs under the package's `test/` instead.
          name: 'units',
          include: ['packages/*/src/**/*.test.ts'],
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'suites',
          include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...exclusive, ...leftOut],
          // Two files at a time (Vitest's default on a 2-core host is one): most suites wait on
          // child processes, leases and databases rather than on the processor.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'exclusive',
          include: exclusive,
          exclude: ['**/node_modules/**', ...leftOut],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
