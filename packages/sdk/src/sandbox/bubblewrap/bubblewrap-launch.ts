import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostUser, ProcessLaunch } from '../sandbox.js';
import { SandboxUnavailableError } from '../sandbox-errors.js';
import { buildSeccompFilter, seccompArchitectures } from './seccomp-filter.js';

/** The programs a launch chain needs, resolved to absolute host paths once. */
export interface BubblewrapPrograms {
  bubblewrap: string;
  /** `setpriv` (util-linux), when the host is root and must drop to the sandbox user. */
  setpriv?: string;
}

/** The descriptor on which the launch chain hands bubblewrap the seccomp filter. */
export const seccompDescriptor = 3;

let filterDirectory: string | undefined;

/**
 * The seccomp filter of this architecture in a file only this host user can read, written once per
 * process in a fresh private directory (an unpredictable name, so that no other local user can plant
 * a weaker filter there) and removed when the process exits.
 */
export function seccompFilterFile(): string {
  if (filterDirectory && existsSync(join(filterDirectory, 'filter.bpf'))) return join(filterDirectory, 'filter.bpf');
  const filter = buildSeccompFilter();
  if (!filter) {
    throw new SandboxUnavailableError(
      `the sandbox's seccomp filter is built for ${seccompArchitectures.join(' and ')}, not ${process.arch}`,
    );
  }
  filterDirectory = mkdtempSync(join(tmpdir(), 'agentloom-seccomp-'));
  const directory = filterDirectory;
  writeFileSync(join(directory, 'filter.bpf'), filter, { mode: 0o600 });
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  return join(directory, 'filter.bpf');
}

/**
 * How to start bubblewrap with `bubblewrapArgs` (which must end with `--` and the program): a
 * shell opens the seccomp filter on descriptor 3 and replaces itself with bubblewrap — through
 * `setpriv` first on a root host, which drops to the sandbox user with no supplementary groups and
 * `no_new_privs`, so that the sandbox never acts as host root. The chain starts with an empty
 * environment, so that nothing of the host's environment reaches bubblewrap; it is one process
 * (each step `exec`s the next), so killing it kills bubblewrap and, through `--die-with-parent`,
 * everything inside.
 */
export function bubblewrapLaunch(
  programs: BubblewrapPrograms,
  user: { user: HostUser; switchUser: boolean },
  bubblewrapArgs: readonly string[],
): ProcessLaunch {
  if (user.switchUser && !programs.setpriv) {
    throw new SandboxUnavailableError('a root host needs setpriv (util-linux) to drop to the sandbox user');
  }
  const drop =
    user.switchUser && programs.setpriv
      ? [programs.setpriv, `--reuid=${user.user.uid}`, `--regid=${user.user.gid}`, '--clear-groups', '--no-new-privs', '--']
      : [];
  return {
    command: '/bin/sh',
    args: [
      '-c',
      `exec ${seccompDescriptor}<"$0" || exit 126; exec "$@"`,
      seccompFilterFile(),
      ...drop,
      programs.bubblewrap,
      ...bubblewrapArgs,
    ],
    env: {},
  };
}

/**
 * The limits a sandboxed program starts under, set with `prlimit` inside the sandbox: the process
 * count is then counted in the sandbox's own user namespace (only its own processes), and a single
 * file can never exceed the disk quota.
 */
export function limitedProgram(program: readonly string[], limits: { maxProcesses: number; maxFileBytes?: number }): string[] {
  return [
    '/usr/bin/prlimit',
    `--nproc=${limits.maxProcesses}`,
    ...(limits.maxFileBytes === undefined ? [] : [`--fsize=${limits.maxFileBytes}`]),
    '--',
    ...program,
  ];
}
