import { spawnSync } from 'node:child_process';
import { runLimitedProcess } from '../run-limited-process.js';
import {
  baseEnvironment,
  type CommandRequest,
  type CommandResult,
  type ProcessLaunch,
  type ProcessRequest,
  type Sandbox,
} from '../sandbox.js';
import { SandboxUnavailableError } from '../sandbox-errors.js';
import {
  bubblewrapArguments,
  defaultSystemPaths,
  environmentArguments,
  programPaths,
  rewriteProgramPath,
} from './bubblewrap-arguments.js';

/** Options of `BubblewrapSandbox`. */
export interface BubblewrapSandboxOptions {
  /** The bubblewrap program. Default `bwrap` (Debian package `bubblewrap`). */
  executable?: string;
  /** Host paths shown read-only at the same place (programs, libraries). Default: `/usr` and a few `/etc` files. */
  systemPaths?: readonly string[];
  /** Give scripts the host network. Default off. */
  network?: boolean;
}

/** Whether bubblewrap can create its namespaces here, and why not. */
export type BubblewrapAvailability = { available: true; version: string } | { available: false; reason: string };

/**
 * Checks that bubblewrap is installed and can create a sandbox on this machine (user namespaces
 * may be forbidden, for example inside some containers). Runs `true` in a minimal sandbox.
 */
export function checkBubblewrap(executable = 'bwrap'): BubblewrapAvailability {
  const version = spawnSync(executable, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    return { available: false, reason: `"${executable}" is not installed (Debian: apt-get install bubblewrap)` };
  }
  const probe = spawnSync(
    executable,
    [...bubblewrapArguments([], { systemPaths: defaultSystemPaths, network: false }), '--', '/bin/sh', '-c', 'exit 0'],
    { encoding: 'utf8', timeout: 10_000 },
  );
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
 * No network unless asked. Construction checks that bubblewrap works and throws
 * `SandboxUnavailableError` otherwise, before any script is accepted.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly kind = 'bubblewrap';
  readonly isolating = true;
  private readonly executable: string;
  private readonly systemPaths: readonly string[];
  private readonly network: boolean;

  constructor(options: BubblewrapSandboxOptions = {}) {
    this.executable = options.executable ?? 'bwrap';
    this.systemPaths = options.systemPaths ?? defaultSystemPaths;
    this.network = options.network ?? false;
    const availability = checkBubblewrap(this.executable);
    if (!availability.available) throw new SandboxUnavailableError(availability.reason);
  }

  runCommand(request: CommandRequest): Promise<CommandResult> {
    const environment = { ...baseEnvironment('/tmp'), ...(request.environment ?? {}) };
    return runLimitedProcess({
      command: this.executable,
      args: [
        ...bubblewrapArguments(request.view.mounts, { systemPaths: this.systemPaths, network: this.network }),
        ...environmentArguments(environment),
        '--',
        '/bin/sh',
        '-c',
        request.command,
      ],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      ...(request.signal ? { signal: request.signal } : {}),
    });
  }

  launch(request: ProcessRequest): ProcessLaunch {
    const environment = { ...baseEnvironment('/tmp'), ...(request.environment ?? {}) };
    const programs = programPaths(request.readOnlyPaths ?? []);
    return {
      command: this.executable,
      args: [
        ...bubblewrapArguments(request.view.mounts, { systemPaths: this.systemPaths, network: this.network }, programs),
        ...environmentArguments(environment),
        '--',
        rewriteProgramPath(request.command, programs),
        ...request.args.map((arg) => rewriteProgramPath(arg, programs)),
      ],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    };
  }
}
