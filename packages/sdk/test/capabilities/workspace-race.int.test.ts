/**
 * Races (F-2): while another process keeps swapping a directory of the view with a symbolic link
 * to another session's directory, file tools reading and writing through that directory either
 * work inside the view or are refused — they never read the other session's secret, never write
 * into its directory. Components are opened one by one without following links, so there is no
 * window between a check and a use. Each kind of outcome (own file, refusal) must occur, so the
 * race really was exercised.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createWorkspace, FileNotFoundError, WorkspaceAccessError } from '../../src/sandbox/index.js';
import { callTool, toolContext } from './capability-harness.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-race-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const flipper = `
const fs = require('node:fs');
const [swap, parked, victim] = process.argv.slice(1);
const attempt = (step) => { try { step(); } catch {} };
for (;;) {
  attempt(() => fs.renameSync(swap, parked));
  attempt(() => fs.symlinkSync(victim, swap));
  attempt(() => fs.unlinkSync(swap));
  attempt(() => fs.renameSync(parked, swap));
}
`;

it('never follows a directory swapped for a link while reading or writing through it', { timeout: 60_000 }, async () => {
  // The attacker's writes race its own swaps on purpose: the read-before-write check (N-15) is off
  // so that every write reaches the confined file operations this test is about.
  const workspace = createWorkspace({ root: join(directory, 'agent'), persistent: true, writeOnlyWhatWasRead: false });
  const victim = toolContext({ sessionId: 'victim', runId: 'victim-run' });
  await callTool(workspace.tools, 'write_file', { path: 'swap/secret.txt', content: 'VICTIM-SECRET' }, victim);
  const attacker = toolContext({ sessionId: 'attacker', runId: 'attack-run' });
  await callTool(workspace.tools, 'write_file', { path: 'swap/secret.txt', content: 'attacker own file' }, attacker);
  const attackerWork = workspace.workDirectory(attacker);
  const victimSwap = join(workspace.workDirectory(victim), 'swap');
  const child = spawn(process.execPath, ['-e', flipper, join(attackerWork, 'swap'), join(attackerWork, 'parked'), victimSwap], {
    stdio: 'ignore',
  });
  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  try {
    // At least 300 rounds, and on until both sides of the race were seen; a busy machine gets more
    // rounds, bounded by a budget so that the test ends well inside its timeout either way.
    const seenBoth = () => (outcomes.get('refused symbolic-link') ?? 0) > 0 && (outcomes.get('read own file') ?? 0) > 0;
    const budgetEnds = Date.now() + 20_000;
    for (let round = 0; round < 300 || (!seenBoth() && Date.now() < budgetEnds); round += 1) {
      try {
        const content = await callTool(workspace.tools, 'read_file', { path: 'swap/secret.txt' }, attacker);
        count(content === 'attacker own file' ? 'read own file' : `LEAK ${String(content)}`);
      } catch (error) {
        if (WorkspaceAccessError.isInstance(error)) count(`refused ${error.reason}`);
        else if (FileNotFoundError.isInstance(error)) count('not found (directory parked)');
        else throw error;
      }
      try {
        await callTool(workspace.tools, 'edit_file', { path: 'swap/secret.txt', oldText: 'own', newText: 'own' }, attacker);
        count('edited own file');
      } catch (error) {
        if (WorkspaceAccessError.isInstance(error)) count(`refused ${error.reason}`);
        else if (FileNotFoundError.isInstance(error)) count('not found (directory parked)');
        else throw error;
      }
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  console.log('race outcomes', Object.fromEntries(outcomes));
  expect([...outcomes.keys()].filter((key) => key.startsWith('LEAK'))).toEqual([]);
  expect(outcomes.get('refused symbolic-link')).toBeGreaterThan(0);
  expect(outcomes.get('read own file')).toBeGreaterThan(0);
  expect(readdirSync(victimSwap)).toEqual(['secret.txt']);
  expect(readFileSync(join(victimSwap, 'secret.txt'), 'utf8')).toBe('VICTIM-SECRET');
});
