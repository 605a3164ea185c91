import type { HostUser, WorkspaceView } from './workspace-view.js';

/** A shell command to run inside a sandbox, with its limits (K-2). */
export interface CommandRequest {
  /** The authorised view: the only files the command may see. */
  view: WorkspaceView;
  /** Run with `/bin/sh -c`, in `/work`. */
  command: string;
  /** Wall-clock limit; the whole process tree is killed when it passes. */
  timeoutMs: number;
  /** Limit on stdout plus stderr; the process tree is killed when it passes. */
  maxOutputBytes: number;
  /** Aborting it kills the process tree at once (attempt timeout, stop, deadline). */
  signal?: AbortSignal;
  /** Extra environment variables; the host environment is never passed through. */
  environment?: Readonly<Record<string, string>>;
  /**
   * Disk quota of the view's writable directories (`/work`, writable mounts), in allocated bytes:
   * the command is killed when their usage grows past it (or past their usage at its start, when
   * that is higher, so that a command can still delete files). No quota when absent.
   */
  diskQuotaBytes?: number;
  /** Most processes (and threads) alive at once inside the sandbox; isolating adapters only. */
  maxProcesses?: number;
  /** Size of the private `/tmp` (memory-backed); isolating adapters only. */
  temporaryBytes?: number;
}

/** How a sandboxed command ended. */
export interface CommandResult {
  /** The exit code, or `null` when the process was killed. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Killed because it ran past `timeoutMs`. */
  timedOut: boolean;
  /** Killed because its output passed `maxOutputBytes` (the output is cut there). */
  outputLimited: boolean;
  /** Killed because the request's signal aborted. */
  aborted: boolean;
  /** Killed because the writable directories grew past `diskQuotaBytes`. */
  diskQuotaExceeded: boolean;
}

export type { HostUser } from './workspace-view.js';

/** A long-lived program (an MCP server over stdio) to start inside a sandbox. */
export interface ProcessRequest {
  view: WorkspaceView;
  /** The program; a virtual path (`/work/…`, `/skills/…`) or a host path made visible by `readOnlyPaths`. */
  command: string;
  args: readonly string[];
  environment?: Readonly<Record<string, string>>;
  /** Host directories the program needs (its package, its interpreter), shown read-only; bubblewrap shows them under `/opt/agentloom/<n>/` and rewrites the command and arguments that point into them. */
  readOnlyPaths?: readonly string[];
}

/** What to spawn so that the program of a `ProcessRequest` runs inside the sandbox. */
export interface ProcessLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/**
 * The port through which scripts and sandboxed servers run (K-2, F-2). Adapters:
 * `BubblewrapSandbox` (Linux namespaces: only the view is visible, skills read-only, the work
 * directory writable, no network) and `ProcessSandbox` (a plain child process in the work
 * directory, for platforms without bubblewrap; it does NOT isolate anything, see `isolating`).
 */
export interface Sandbox {
  /** Adapter name, for diagnostics: `bubblewrap`, `process` … */
  readonly kind: string;
  /**
   * Whether the adapter enforces the view. `false` means a script can reach every file the host
   * user can; do not run untrusted scripts with such an adapter.
   */
  readonly isolating: boolean;
  /**
   * The host user sandboxed programs act as, when it differs from the host process's own user
   * (a root host runs them as an unprivileged user, never as root). The workspace gives this user
   * the work directories and the files its tools write, so that scripts can change them.
   */
  readonly hostUser?: HostUser;
  /** Runs one command to completion within its limits. The view's work directory must exist. */
  runCommand(request: CommandRequest): Promise<CommandResult>;
  /** How to start a long-lived program inside the sandbox (used for stdio MCP servers). */
  launch(request: ProcessRequest): ProcessLaunch;
}

/** The environment every sandboxed program starts from: no host variables. */
export function baseEnvironment(home: string): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
  };
}
