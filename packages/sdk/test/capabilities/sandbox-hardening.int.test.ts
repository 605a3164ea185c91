/**
 * The escapes a second corpus found (issue 19), each reproduced on the host that runs the tests
 * (root in CI): privileges minted through set-id bits and file capabilities, writable kernel
 * settings, a cgroup2 mount after `unshare`, host paths and environment under `/proc/1`, no disk
 * quota, no process limit, no `/tmp` limit — and, without a sandbox, a regular expression that
 * froze the process, checkpoint amplification by a sparse file, and a raw error for a socket.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap/index.js';
import { diskUsage } from '../../src/sandbox/disk-usage.js';
import {
  createWorkspace,
  FileTooLargeError,
  InvalidSearchPatternError,
  SandboxUnavailableError,
  WorkspaceAccessError,
} from '../../src/sandbox/index.js';
import { spawnTestScript } from '../helpers/child-process.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { describeWithBubblewrap } from './bubblewrap-availability.js';
import { callTool, toolContext } from './capability-harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const base = sandboxReachableDirectory('agentloom-hardening-');
afterAll(() => rmSync(base, { recursive: true, force: true }));
const mebibyte = 1024 * 1024;
const isRoot = process.getuid?.() === 0;

/** A root-only file an unprivileged host user must never read. */
const secretFile = join(base, 'root-only-secret');
writeFileSync(secretFile, 'ROOT-ONLY-SECRET');
chmodSync(secretFile, 0o600);

describeWithBubblewrap('bubblewrap on this host: no privilege to mint, no kernel setting to write (issue 19)', () => {
  const sandbox = new BubblewrapSandbox();
  const workspace = createWorkspace({
    root: join(base, 'agent'),
    sandbox,
    limits: {
      commandTimeoutMs: 20_000,
      diskQuotaBytes: 16 * mebibyte,
      commandProcesses: 32,
      commandTemporaryBytes: 8 * mebibyte,
    },
  });
  const scope = { sessionId: 'session-hardening-7f3a', runId: 'run-hardening-91c2' };
  const work = workspace.workDirectory(scope);
  const run = async (command: string) => String(await callTool(workspace.tools, 'run_command', { command }, toolContext(scope)));

  it('never acts as host root: a root host runs scripts as an unprivileged host user, and refuses uid 0', async () => {
    await run('echo made-by-script > /work/by-script.txt');
    const owner = statSync(join(work, 'by-script.txt')).uid;
    expect(owner).not.toBe(0);
    if (isRoot) {
      expect(sandbox.hostUser).toEqual({ uid: 65534, gid: 65534 });
      expect(() => new BubblewrapSandbox({ hostUser: { uid: 0, gid: 0 } })).toThrowError(SandboxUnavailableError);
    }
    // The file tools give what they write to the same user, so a script can change it.
    await callTool(workspace.tools, 'write_file', { path: 'from-tool.txt', content: 'tool\n' }, toolContext(scope));
    expect(await run('echo script >> /work/from-tool.txt && cat /work/from-tool.txt')).toContain('tool\nscript');
  });

  it('cannot leave a set-user-id or set-group-id program, nor a file capability, on the host', async () => {
    const output = await run(
      [
        'cp /usr/bin/cat /work/suid-cat; chmod 4755 /work/suid-cat; echo chmod=$?',
        'cp /usr/bin/cat /work/sgid-cat; chmod g+s /work/sgid-cat; echo chgrp=$?',
        'install -m 4755 /usr/bin/cat /work/installed-cat; echo install=$?',
        `python3 -c "import os; os.open('/work/opened', os.O_CREAT | os.O_WRONLY, 0o4755)"; echo open=$?`,
        'cp /usr/bin/cat /work/cap-cat; /usr/sbin/setcap cap_dac_override+ep /work/cap-cat; echo setcap=$?',
        'unshare -r /usr/sbin/setcap cap_dac_override+ep /work/cap-cat; echo unshare-setcap=$?',
      ].join('; '),
    );
    for (const name of ['chmod', 'chgrp', 'install', 'open', 'setcap', 'unshare-setcap']) {
      expect(output).toMatch(new RegExp(`${name}=[1-9]`));
    }
    for (const name of ['suid-cat', 'sgid-cat', 'installed-cat', 'opened', 'cap-cat']) {
      const path = join(work, name);
      if (!existsSync(path)) continue;
      expect(statSync(path).mode & 0o6000, name).toBe(0);
    }
    const capabilities = spawnSync('/usr/sbin/getcap', [join(work, 'cap-cat')], { encoding: 'utf8' });
    expect(capabilities.status).toBe(0);
    expect(capabilities.stdout.trim()).toBe('');
    // The end-to-end check: an unprivileged local user runs what the script left, and reads nothing.
    if (isRoot) {
      for (const name of ['suid-cat', 'cap-cat']) {
        const attempt = spawnSync(join(work, name), [secretFile], { uid: 12345, gid: 12345, encoding: 'utf8' });
        expect(attempt.stdout).not.toContain('ROOT-ONLY-SECRET');
        expect(attempt.status).not.toBe(0);
      }
    }
  });

  it('refuses set-id bits on a non-root host too, where the sandbox acts as the host user', async () => {
    // A root test host starts the host process as an unprivileged user; a non-root one is one already.
    const root = join(base, 'non-root-agent');
    mkdirSync(root);
    if (isRoot) chownSync(root, 12346, 12346);
    const lines: string[] = [];
    const exit = await spawnTestScript(
      join(here, 'non-root-host-child.ts'),
      { AGENTLOOM_TEST_ROOT: root },
      (line) => lines.push(line),
      isRoot ? { uid: 12346, gid: 12346 } : undefined,
    );
    const line = lines.find((candidate) => candidate.startsWith('RESULT '));
    expect(line, exit.stderr).toBeDefined();
    const result = JSON.parse((line as string).slice(7)) as {
      uid: number;
      hostUser: unknown;
      output: string;
      modes: Record<string, number | null>;
    };
    expect(result.uid).not.toBe(0);
    expect(result.hostUser).toBeNull();
    expect(result.output).toMatch(/chmod=[1-9]/);
    expect(result.output).toMatch(/open=[1-9]/);
    for (const mode of Object.values(result.modes)) expect((mode ?? 0) & 0o6000).toBe(0);
  });

  it('sees /proc/sys read-only and cannot mount a cgroup2 hierarchy after unshare', async () => {
    const before = readFileSync('/proc/sys/kernel/core_pattern', 'utf8');
    const output = await run(
      [
        'echo writable=$(find /proc/sys -type f -writable 2>/dev/null | wc -l)',
        "echo '|/work/handler %p' > /proc/sys/kernel/core_pattern; echo core=$?",
        'grep -E " /proc/sys " /proc/self/mountinfo | grep -q " ro," && echo proc-sys-ro',
        'unshare -rCm sh -c "mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg && echo MOUNTED-CGROUP"; echo unshare=$?',
        'mkdir -p /tmp/cg2; mount -t cgroup2 none /tmp/cg2 && echo MOUNTED-DIRECTLY; echo mount=$?',
      ].join('; '),
    );
    expect(output).toContain('writable=0');
    expect(output).toMatch(/core=[1-9]/);
    expect(output).toContain('proc-sys-ro');
    expect(output).not.toContain('MOUNTED-CGROUP');
    expect(output).not.toContain('MOUNTED-DIRECTLY');
    expect(output).toMatch(/unshare=[1-9]/);
    expect(readFileSync('/proc/sys/kernel/core_pattern', 'utf8')).toBe(before);
  });

  it('binds every writable directory nosuid, and shows no host path or host environment under /proc/1', async () => {
    const output = await run(
      'grep " /work " /proc/self/mountinfo; echo PROCESS-ONE; tr "\\0" " " < /proc/1/cmdline; echo; tr "\\0" " " < /proc/1/environ',
    );
    const [mounts, processOne] = output.split('PROCESS-ONE');
    expect(mounts).toMatch(/ \/work \S*nosuid/);
    for (const leak of [base, scope.sessionId, scope.runId, process.env.PATH ?? '/nonexistent-path']) {
      expect(processOne).not.toContain(leak);
    }
  });

  it('limits the processes of a command', async () => {
    const output = await run(
      // Counted with a glob: at the limit, the shell cannot fork `ls`.
      'i=0; while [ $i -lt 200 ]; do (sleep 4 &) 2>/dev/null; i=$((i+1)); done; set -- /proc/[0-9]*; echo processes=$#',
    );
    const processes = Number(/processes=(\d+)/.exec(output)?.[1]);
    expect(processes).toBeGreaterThan(0);
    expect(processes).toBeLessThanOrEqual(32);
  });

  it('limits /tmp, each file, and the work directory by its disk quota, yet lets a command delete files', async () => {
    const temporary = await run('head -c 64M /dev/zero > /tmp/fill; echo tmp=$?; echo size=$(stat -c %s /tmp/fill)');
    expect(temporary).toMatch(/tmp=[1-9]/);
    expect(Number(/size=(\d+)/.exec(temporary)?.[1])).toBeLessThanOrEqual(8 * mebibyte);

    const single = await run('head -c 64M /dev/zero > /work/one-big-file; echo big=$?');
    expect(single).toMatch(/big=[1-9]/);
    expect(statSync(join(work, 'one-big-file')).size).toBeLessThanOrEqual(16 * mebibyte);
    await run('rm -f /work/one-big-file');

    // 512 files of 2 MiB (1 GiB) against a 16 MiB quota: stopped long before the end.
    const many = await run(
      'i=0; while [ $i -lt 512 ]; do head -c 2097152 /dev/zero > /work/part-$i || exit 3; i=$((i+1)); done; echo wrote-everything',
    );
    expect(many).toContain('disk quota');
    expect(many).not.toContain('wrote-everything');
    expect(await diskUsage([work])).toBeLessThan(1024 * mebibyte);

    const cleanup = await run('rm -f /work/part-*; echo removed');
    expect(cleanup).toContain('removed');
    expect(cleanup).not.toContain('disk quota');
    expect(await diskUsage([work])).toBeLessThan(16 * mebibyte);
  });
});

describe('file tools against hostile files (issue 19)', () => {
  const workspace = createWorkspace({ root: join(base, 'files-agent'), limits: { editBytes: 4 * mebibyte } });
  const scope = { sessionId: 'session-files', runId: 'run-files' };
  const context = () => toolContext(scope);

  it('runs a model-supplied expression in linear time: the event loop keeps its 10 ms timer', async () => {
    await callTool(workspace.tools, 'write_file', { path: 'evil.txt', content: `${'a'.repeat(48)}!\n` }, context());
    let largestGap = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      largestGap = Math.max(largestGap, now - last);
      last = now;
    }, 10);
    try {
      const report = await callTool(workspace.tools, 'grep_files', { pattern: '^(a+)+$', regex: true }, context());
      expect(report).toContain('(no matches)');
      const found = await callTool(workspace.tools, 'grep_files', { pattern: '^a+!$', regex: true }, context());
      expect(found).toContain('/work/evil.txt:1:');
    } finally {
      clearInterval(timer);
    }
    // Blocked by backtracking, the first call alone held the loop for minutes (28 characters: 22.7 s).
    expect(largestGap).toBeLessThan(1_000);
    await expect(callTool(workspace.tools, 'grep_files', { pattern: '(a)\\1', regex: true }, context())).rejects.toSatisfy(
      (error: unknown) => InvalidSearchPatternError.isInstance(error),
    );
  });

  it('refuses to checkpoint or edit a huge sparse file, writing nothing', async () => {
    await callTool(workspace.tools, 'write_file', { path: 'seed.txt', content: 'x' }, context());
    const sparse = join(workspace.workDirectory(scope), 'sparse.bin');
    writeFileSync(sparse, '');
    spawnSync('truncate', ['-s', '48M', sparse]);
    expect(statSync(sparse).blocks).toBe(0);
    const checkpoints = join(workspace.systemDirectory, 'checkpoints');
    const before = await diskUsage([checkpoints]);
    // Read first, so that the write-only-what-was-read check (N-15) lets the calls reach the size check.
    await callTool(workspace.tools, 'read_file', { path: 'sparse.bin' }, context());
    for (const [name, args] of [
      ['write_file', { path: 'sparse.bin', content: 'small' }],
      ['edit_file', { path: 'sparse.bin', oldText: 'a', newText: 'b' }],
    ] as const) {
      await expect(callTool(workspace.tools, name, args, context())).rejects.toSatisfy(
        (error: unknown) => FileTooLargeError.isInstance(error) && error.size === 48 * mebibyte,
      );
    }
    expect(statSync(sparse).size).toBe(48 * mebibyte);
    expect(await diskUsage([checkpoints])).toBe(before);
  });

  it('refuses a Unix socket with the typed refusal', async () => {
    const socketPath = join(workspace.workDirectory(scope), 'service.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      await expect(callTool(workspace.tools, 'read_file', { path: 'service.sock' }, context())).rejects.toSatisfy(
        (error: unknown) => WorkspaceAccessError.isInstance(error) && error.reason === 'not-a-regular-file',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
