/**
 * The one place that decides whether the tests that need bubblewrap run:
 * - bubblewrap works here: the suites run;
 * - it does not, and this is CI (`CI` set, as `.ci/run` is run) or `AGENTLOOM_REQUIRE_BUBBLEWRAP=1`:
 *   each suite fails with the reason (`.ci/run` installs the Debian package `bubblewrap`);
 * - otherwise they are skipped, with the reason printed and in the suite's name.
 */
import { describe, it } from 'vitest';
import { checkBubblewrap } from '../../src/sandbox/bubblewrap/index.js';

/**
 * Whether bubblewrap works on this machine, checked once per test file. `AGENTLOOM_BUBBLEWRAP`
 * names another program to check (a test of the skip path points it at a missing one).
 */
export const bubblewrap = checkBubblewrap(
  process.env.AGENTLOOM_BUBBLEWRAP ? { executable: process.env.AGENTLOOM_BUBBLEWRAP } : {},
);

const required = Boolean(process.env.CI) || process.env.AGENTLOOM_REQUIRE_BUBBLEWRAP === '1';
let warned = false;

/** Registers a suite that needs a working bubblewrap; runs, fails or skips it as described above. */
export function describeWithBubblewrap(name: string, body: () => void): void {
  if (bubblewrap.available) {
    describe(name, body);
    return;
  }
  const reason = bubblewrap.reason;
  if (required) {
    describe(name, () => {
      it('has a working bubblewrap (CI never skips the sandbox tests)', () => {
        throw new Error(`${reason}. Install it (apt-get install -y bubblewrap) and allow user namespaces.`);
      });
    });
    return;
  }
  if (!warned) {
    warned = true;
    console.warn(`[agentloom] SKIPPED sandbox tests: ${reason}. Set AGENTLOOM_REQUIRE_BUBBLEWRAP=1 to fail instead.`);
  }
  // The body is not even collected: it may construct what needs bubblewrap (a sandbox).
  describe.skip(`${name} (skipped: ${reason})`, () => {
    it.skip('needs bubblewrap', () => {});
  });
}
