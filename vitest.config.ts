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
 * `AGENTLOOM_SKIP_BROWSER_SUITES=1` leaves the console's Chromium suites out: CI's Node 24 stage
 * sets it, their checks running in the browser against server code the other suites run on
 * Node 24 too (ADR 0011, last revision).
 */
const browserSuites = process.env.AGENTLOOM_SKIP_BROWSER_SUITES === '1' ? ['**/*.browser.test.ts'] : [];

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
          exclude: ['**/node_modules/**', ...exclusive, ...browserSuites],
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
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
