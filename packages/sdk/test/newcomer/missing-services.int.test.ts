/**
 * Issue 18, item 8: on a machine without bubblewrap and without PostgreSQL, the tests that need
 * them are skipped and say so, and the rest passes; with AGENTLOOM_REQUIRE_BUBBLEWRAP=1 and
 * AGENTLOOM_REQUIRE_POSTGRES=1 (as `.ci/run` sets) the same run fails. Runs Vitest in a child
 * process whose PATH holds every program of this machine except `bwrap`, and whose PostgreSQL is a
 * closed port with no server binaries.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = mkdtempSync(join(tmpdir(), 'agentloom-no-bwrap-path-'));
symlinkSync(process.execPath, join(bin, 'node'));
for (const directory of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
  if (!existsSync(directory)) continue;
  for (const name of readdirSync(directory)) {
    if (name === 'bwrap' || existsSync(join(bin, name))) continue;
    symlinkSync(join(directory, name), join(bin, name));
  }
}
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Every test file that needs bubblewrap or PostgreSQL and nothing else. */
const serviceFiles = [
  'packages/sdk/src/store/postgres/postgres-run-store.int.test.ts',
  'packages/sdk/test/capabilities/escape-corpus.int.test.ts',
  'packages/sdk/test/capabilities/sandbox-adapters.int.test.ts',
  'packages/sdk/test/capabilities/sandbox-hardening.int.test.ts',
  'packages/sdk/test/capabilities/skill-react-run.int.test.ts',
  'packages/sdk/test/faults/postgres-faults.int.test.ts',
  'packages/sdk/test/postgres/concurrent-owners.int.test.ts',
  'packages/sdk/test/postgres/takeover.int.test.ts',
];

function runVitest(extra: Record<string, string>) {
  const env: Record<string, string> = {
    PATH: bin,
    HOME: process.env.HOME ?? '/tmp',
    AGENTLOOM_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/none',
    AGENTLOOM_POSTGRES_BINARIES: join(bin, 'no-postgres-here'),
    ...extra,
  };
  return spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...serviceFiles], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 240_000,
  });
}

describe('npm test on a machine without bubblewrap and PostgreSQL', () => {
  it('skips what needs them, says what it skipped, and passes', () => {
    const run = runVitest({});
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toContain('SKIPPED sandbox tests');
    expect(output).toContain('SKIPPED PostgreSQL tests');
    expect(output).toContain('SKIPPED PostgreSQL fault tests');
  }, 240_000);

  it('fails instead when CI requires both', () => {
    const run = runVitest({ AGENTLOOM_REQUIRE_BUBBLEWRAP: '1', AGENTLOOM_REQUIRE_POSTGRES: '1' });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).not.toBe(0);
    expect(output).toContain('AGENTLOOM_REQUIRE_POSTGRES=1');
    expect(output).toContain('has a working bubblewrap');
  }, 240_000);
});
