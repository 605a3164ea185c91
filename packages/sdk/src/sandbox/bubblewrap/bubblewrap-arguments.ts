import { lstatSync } from 'node:fs';
import { basename } from 'node:path';
import { type MountBinding, mountHostPath } from '../workspace-view.js';

/** System paths shown read-only in every bubblewrap sandbox: programs and libraries, no user data. */
export const defaultSystemPaths: readonly string[] = [
  '/usr',
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
];

/** Options that shape a bubblewrap command line. */
export interface BubblewrapLayout {
  systemPaths: readonly string[];
  /** Share the host network (off: the sandbox has no network at all). */
  network: boolean;
  /** Size of the private, memory-backed `/tmp`. */
  temporaryBytes: number;
  /** The descriptor bubblewrap reads the seccomp filter from. */
  seccompDescriptor: number;
}

/** Default size of a sandbox's private `/tmp`: 64 MiB. */
export const defaultTemporaryBytes = 64 * 1024 * 1024;

/**
 * Builds the bubblewrap arguments that show exactly the view (K-2, F-2): system programs
 * read-only, a private `/proc` (with `/proc/sys` read-only), `/dev` and a size-limited `/tmp`,
 * skills and read-only mounts with `--ro-bind`, the work directory with `--bind` (bubblewrap mounts
 * every bind `nosuid,nodev`), nothing else of the host (no home, no other session, no system
 * records). The program runs as an unprivileged user in new user, PID, IPC, UTS, cgroup and
 * network namespaces, may not create further user namespaces (so it cannot regain capabilities
 * to mount or to write file capabilities), has every capability dropped, runs under the seccomp
 * filter, in a new session, as PID 1 of its namespace (so `/proc/1` is the program itself, not a
 * bubblewrap process whose command line names host paths), and dies with its parent.
 */
export function bubblewrapArguments(
  mounts: readonly MountBinding[],
  layout: BubblewrapLayout,
  programPaths: readonly ProgramPath[] = [],
): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--as-pid-1',
    ...(layout.network ? ['--share-net'] : []),
    '--cap-drop',
    'ALL',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--clearenv',
  ];
  for (const path of layout.systemPaths) args.push('--ro-bind-try', path, path);
  for (const name of ['bin', 'lib', 'lib64', 'sbin']) {
    const target = usrLink(name);
    if (target) args.push('--symlink', target, `/${name}`);
    else args.push('--ro-bind-try', `/${name}`, `/${name}`);
  }
  args.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--dev', '/dev');
  args.push('--size', String(layout.temporaryBytes), '--tmpfs', '/tmp');
  for (const program of programPaths) args.push('--ro-bind', program.host, program.inside);
  for (const mount of [...mounts].sort((left, right) => left.virtualPath.localeCompare(right.virtualPath))) {
    args.push(mount.writable ? '--bind' : '--ro-bind', mountHostPath(mount), mount.virtualPath);
  }
  // Nothing but /work, writable mounts and /tmp may change: the sandbox's own root is read-only too.
  args.push('--remount-ro', '/');
  if (mounts.some((mount) => mount.virtualPath === '/work')) args.push('--chdir', '/work');
  args.push('--seccomp', String(layout.seccompDescriptor));
  return args;
}

/** A host directory a sandboxed program needs (its package, its interpreter), and where it appears inside. */
export interface ProgramPath {
  host: string;
  inside: string;
}

/**
 * Places program directories under `/opt/agentloom/<n>/<name>` (never at their host path, which
 * could collide with the view, e.g. a host checkout under `/work`), keeping the last component so
 * that `node_modules` lookups still work.
 */
export function programPaths(hostPaths: readonly string[]): ProgramPath[] {
  return hostPaths.map((host, index) => ({ host, inside: `/opt/agentloom/${index}/${basename(host) || 'root'}` }));
}

/** Rewrites host program paths at the start of a command or argument to where the sandbox shows them. */
export function rewriteProgramPath(value: string, programs: readonly ProgramPath[]): string {
  for (const program of programs) {
    if (value === program.host || value.startsWith(`${program.host}/`))
      return `${program.inside}${value.slice(program.host.length)}`;
  }
  return value;
}

/** `usr/bin` when `/bin` is a link into `/usr` (merged-usr systems), otherwise `undefined`. */
function usrLink(name: string): string | undefined {
  try {
    return lstatSync(`/${name}`).isSymbolicLink() ? `usr/${name}` : undefined;
  } catch {
    return undefined;
  }
}

/** `--setenv` arguments for an environment. */
export function environmentArguments(environment: Readonly<Record<string, string>>): string[] {
  return Object.entries(environment).flatMap(([name, value]) => ['--setenv', name, value]);
}
