import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { runLimitedProcess } from '../run-limited-process.js';
import {
  baseEnvironment,
  type CommandRequest,
  type CommandResult,
  type HostUser,
  type ProcessLaunch,
  type ProcessRequest,
  type Sandbox,
} from '../sandbox.js';
import { SandboxUnavailableError } from '../sandbox-errors.js';
import { type MountBinding, mountHostPath } from '../workspace-view.js';
import {
  bubblewrapArguments,
  defaultSystemPaths,
  defaultTemporaryBytes,
  environmentArguments,
  type ProgramPath,
  programPaths,
  rewriteProgramPath,
} from './bubblewrap-arguments.js';
import { type BubblewrapPrograms, bubblewrapLaunch, limitedProgram, seccompDescriptor } from './bubblewrap-launch.js';
import { assertReachable, findExecutable, resolveSandboxUser } from './host-user.js';

/** Options of `BubblewrapSandbox`. */
export interface BubblewrapSandboxOptions {
  /** The bubblewrap program. Default `bwrap` on the host `PATH` (Debian package `bubblewrap`). */
  executable?: string;
  /** Host paths shown read-only at the same place (programs, libraries). Default: `/usr` and a few `/etc` files. */
  systemPaths?: readonly string[];
  /** Give scripts the host network. Default off. */
  network?: boolean;
  /**
   * The unprivileged host user sandboxes act as when this process runs as root. Default uid/gid
   * 65534 (`nobody`); a dedicated user is better. Refused when 0, and on a non-root host unless it
   * is the host process's own user.
   */
  hostUser?: HostUser;
  /** Most processes (and threads) of a long-lived program started with `launch` (MCP servers). Default 128. */
  maxProcesses?: number;
  /** Size of the private `/tmp` of a launched program, unless a command asks for another. Default 64 MiB. */
  temporaryBytes?: number;
}

/** Whether bubblewrap can create its namespaces here, and why not. */
export type BubblewrapAvailability = { available: true; version: string } | { available: false; reason: string };

/** Default process limit inside a sandbox. */
export const defaultMaxProcesses = 128;

interface ResolvedSetup {
  programs: BubblewrapPrograms;
  user: ReturnType<typeof resolveSandboxUser>;
}

/** Resolves the programs and the user a sandbox needs; throws `SandboxUnavailableError` with the reason. */
function resolveSetup(options: BubblewrapSandboxOptions): ResolvedSetup {
  const executable = options.executable ?? 'bwrap';
  const bubblewrap = findExecutable(executable);
  if (!bubblewrap) throw new SandboxUnavailableError(`"${executable}" is not installed (Debian: apt-get install bubblewrap)`);
  const user = resolveSandboxUser(options.hostUser);
  const setpriv = user.switchUser ? findExecutable('setpriv') : undefined;
  if (user.switchUser && !setpriv) {
    throw new SandboxUnavailableError('a root host needs setpriv (util-linux) to run sandboxes as an unprivileged user');
  }
  if (!existsSync('/usr/bin/prlimit')) throw new SandboxUnavailableError('the sandbox needs /usr/bin/prlimit (util-linux)');
  return { programs: { bubblewrap, ...(setpriv ? { setpriv } : {}) }, user };
}

/**
 * Checks that bubblewrap is installed and can create a sandbox on this machine, exactly as
 * `BubblewrapSandbox` would start one (the user switch of a root host, the seccomp filter, the
 * limits): user namespaces may be forbidden, for example inside some containers. Runs `true`.
 */
export function checkBubblewrap(options: BubblewrapSandboxOptions | string = {}): BubblewrapAvailability {
  const resolved = typeof options === 'string' ? { executable: options } : options;
  let setup: ResolvedSetup;
  try {
    setup = resolveSetup(resolved);
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
  const version = spawnSync(setup.programs.bubblewrap, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    return {
      available: false,
      reason: `"${setup.programs.bubblewrap}" does not run: ${version.error?.message ?? version.stderr}`,
    };
  }
  const layout = {
    systemPaths: defaultSystemPaths,
    network: false,
    temporaryBytes: defaultTemporaryBytes,
    seccompDescriptor,
  };
  const launch = bubblewrapLaunch(setup.programs, setup.user, [
    ...bubblewrapArguments([], layout),
    '--',
    ...limitedProgram(['/bin/sh', '-c', 'exit 0'], { maxProcesses: defaultMaxProcesses }),
  ]);
  const probe = spawnSync(launch.command, launch.args, { encoding: 'utf8', timeout: 10_000, env: launch.env });
  if (probe.error || probe.status !== 0) {
    const detail = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
    return { available: false, reason: `bubblewrap cannot create a sandbox here: ${detail}` };
  }
  return { available: true, version: version.stdout.trim() };
}

/**
 * A `Sandbox` on bubblewrap (K-2): each command runs in fresh Linux namespaces that show only the
 * authorised view — skills and read-only mounts read-only, the work directory writable — plus
 * system programs; never the host home, another session's files or the system records (F-2, F-3).
 * No network unless asked. It never acts as host root: a root host runs it as `hostUser`. A seccomp
 * filter refuses set-id bits and file capabilities; the process count, `/tmp` and the writable
 * directories' disk usage are limited. Construction checks all of it and throws
 * `SandboxUnavailableError` otherwise, before any script is accepted (docs/capabilities.md).
 */
export class BubblewrapSandbox implements Sandbox {
  readonly kind = 'bubblewrap';
  readonly isolating = true;
  readonly hostUser: HostUser | undefined;
  private readonly setup: ResolvedSetup;
  private readonly systemPaths: readonly string[];
  private readonly network: boolean;
  private readonly maxProcesses: number;
  private readonly temporaryBytes: number;

  constructor(options: BubblewrapSandboxOptions = {}) {
    this.setup = resolveSetup(options);
    this.hostUser = this.setup.user.switchUser ? this.setup.user.user : undefined;
    this.systemPaths = options.systemPaths ?? defaultSystemPaths;
    this.network = options.network ?? false;
    this.maxProcesses = options.maxProcesses ?? defaultMaxProcesses;
    this.temporaryBytes = options.temporaryBytes ?? defaultTemporaryBytes;
    const availability = checkBubblewrap(options);
    if (!availability.available) throw new SandboxUnavailableError(availability.reason);
  }

  runCommand(request: CommandRequest): Promise<CommandResult> {
    this.assertReachable(request.view.mounts, []);
    const environment = { ...baseEnvironment('/tmp'), ...(request.environment ?? {}) };
    const launch = bubblewrapLaunch(this.setup.programs, this.setup.user, [
      ...bubblewrapArguments(request.view.mounts, this.layout(request.temporaryBytes)),
      ...environmentArguments(environment),
      '--',
      ...limitedProgram(['/bin/sh', '-c', request.command], {
        maxProcesses: request.maxProcesses ?? this.maxProcesses,
        ...(request.diskQuotaBytes === undefined ? {} : { maxFileBytes: request.diskQuotaBytes }),
      }),
    ]);
    const writable = request.view.mounts.filter((mount) => mount.writable).map(mountHostPath);
    return runLimitedProcess({
      ...launch,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.diskQuotaBytes === undefined
        ? {}
        : { diskWatch: { directories: writable, quotaBytes: request.diskQuotaBytes } }),
    });
  }

  launch(request: ProcessRequest): ProcessLaunch {
    const environment = { ...baseEnvironment('/tmp'), ...(request.environment ?? {}) };
    const programs = programPaths(request.readOnlyPaths ?? []);
    this.assertReachable(request.view.mounts, programs);
    return bubblewrapLaunch(this.setup.programs, this.setup.user, [
      ...bubblewrapArguments(request.view.mounts, this.layout(undefined), programs),
      ...environmentArguments(environment),
      '--',
      ...limitedProgram(
        [rewriteProgramPath(request.command, programs), ...request.args.map((arg) => rewriteProgramPath(arg, programs))],
        { maxProcesses: this.maxProcesses },
      ),
    ]);
  }

  private layout(temporaryBytes: number | undefined) {
    return {
      systemPaths: this.systemPaths,
      network: this.network,
      temporaryBytes: temporaryBytes ?? this.temporaryBytes,
      seccompDescriptor,
    };
  }

  /** On a root host, refuses at once a view the sandbox user could not open (see `assertReachable`). */
  private assertReachable(mounts: readonly MountBinding[], programs: readonly ProgramPath[]): void {
    if (!this.hostUser) return;
    for (const mount of mounts) assertReachable(mountHostPath(mount), this.hostUser, mount.writable ? 'write' : 'read');
    for (const program of programs) assertReachable(program.host, this.hostUser, 'read');
  }
}
