/**
 * The two `Sandbox` adapters (K-2): bubblewrap enforces the view, limits time and output, kills
 * the whole process tree and clears the environment; the plain-process adapter only limits and
 * rewrites paths — it does not isolate, as its documentation says, and this test shows it.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox, checkBubblewrap } from '../../src/sandbox/bubblewrap/index.js';
import { createWorkspace, ProcessSandbox, type Sandbox, SandboxUnavailableError } from '../../src/sandbox/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { describeWithBubblewrap } from './bubblewrap-availability.js';
import { processesWith } from './capability-harness.js';

const directory = sandboxReachableDirectory('agentloom-sandbox-');
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const skill = join(directory, 'skills', 'echo-skill');
mkdirSync(skill, { recursive: true });
writeFileSync(join(skill, 'run.sh'), 'echo "skill says $1"\n');
const outside = join(directory, 'outside.txt');
writeFileSync(outside, 'outside content');

async function viewFor(sandbox: Sandbox, runId: string) {
  const workspace = createWorkspace({
    root: join(directory, 'agent'),
    skills: [{ name: 'echo-skill', directory: skill }],
    sandbox,
  });
  const scope = { sessionId: 'session-1', runId };
  return { view: await workspace.prepare(scope), work: workspace.workDirectory(scope) };
}

const limits = { timeoutMs: 10_000, maxOutputBytes: 4096 };

/** Whether every process with `marker` in its command line has ended (waits up to two seconds). */
async function gone(marker: string): Promise<boolean> {
  for (let round = 0; round < 40; round += 1) {
    if (processesWith(marker).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describeWithBubblewrap('BubblewrapSandbox', () => {
  const sandbox = new BubblewrapSandbox();

  it('runs a skill script read-only and writes only to /work, with a cleared environment and no network', async () => {
    const { view, work } = await viewFor(sandbox, 'bwrap-run');
    const result = await sandbox.runCommand({
      view,
      ...limits,
      command: `sh /skills/echo-skill/run.sh hello > /work/out.txt; cat /work/out.txt; env | sort; cat '${outside}' || echo no-outside; cat /sys/class/net/*/address 2>/dev/null | wc -l`,
      environment: { EXTRA: 'given' },
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, outputLimited: false, aborted: false });
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('skill says hello');
    expect(lines).toContain('EXTRA=given');
    expect(lines).toContain('HOME=/tmp');
    expect(lines.some((line) => line.startsWith('PWD=/work'))).toBe(true);
    expect(lines.filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split('=')[0])).not.toContain('VITEST');
    expect(lines).toContain('no-outside');
    expect(lines.at(-1)).toBe('0');
    expect(existsSync(join(work, 'out.txt'))).toBe(true);
  });

  it('stops a command at its time limit and at its output limit, killing background children', async () => {
    const { view } = await viewFor(sandbox, 'bwrap-limits');
    const slow = await sandbox.runCommand({
      view,
      timeoutMs: 300,
      maxOutputBytes: 4096,
      command: '(sleep 30.4711) & sleep 30.4712',
    });
    expect(slow).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(await gone('30.471')).toBe(true);
    const noisy = await sandbox.runCommand({ view, timeoutMs: 10_000, maxOutputBytes: 1000, command: 'yes agentloom' });
    expect(noisy.outputLimited).toBe(true);
    expect(noisy.stdout.length).toBe(1000);
    const controller = new AbortController();
    const pending = sandbox.runCommand({ view, ...limits, command: 'sleep 30', signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ aborted: true, exitCode: null });
  });

  it('refuses to construct when bubblewrap is missing', () => {
    expect(checkBubblewrap('/nonexistent/bwrap')).toMatchObject({ available: false });
    expect(() => new BubblewrapSandbox({ executable: '/nonexistent/bwrap' })).toThrow(SandboxUnavailableError);
  });
});

describe('ProcessSandbox (not isolating)', () => {
  const sandbox = new ProcessSandbox();

  it('rewrites virtual paths and limits time, but can read outside the view: it does not isolate', async () => {
    expect(sandbox.isolating).toBe(false);
    const { view, work } = await viewFor(sandbox, 'process-run');
    const result = await sandbox.runCommand({
      view,
      ...limits,
      command: `sh /skills/echo-skill/run.sh hi > /work/out.txt; cat /work/out.txt; pwd; cat '${outside}'`,
    });
    expect(result.stdout.trim().split('\n')).toEqual(['skill says hi', work, 'outside content']);
    const slow = await sandbox.runCommand({
      view,
      timeoutMs: 200,
      maxOutputBytes: 100,
      command: '(sleep 30.4713) & sleep 30.4714',
    });
    expect(slow.timedOut).toBe(true);
    expect(await gone('30.4713')).toBe(true);
  });

  it('leaves a host program alone whose path starts like a virtual one (a Node under /work/…), rewrites the rest', async () => {
    const { view, work } = await viewFor(sandbox, 'process-launch');
    const launch = sandbox.launch({
      view,
      command: '/work/checkout/.tmp/node24/bin/node',
      args: ['/work/checkout/.tmp/node24/lib/x.js', '/work/notes.txt'],
      readOnlyPaths: ['/work/checkout/.tmp/node24'],
    });
    expect(launch.command).toBe('/work/checkout/.tmp/node24/bin/node');
    expect(launch.args).toEqual(['/work/checkout/.tmp/node24/lib/x.js', `${work}/notes.txt`]);
  });
});
