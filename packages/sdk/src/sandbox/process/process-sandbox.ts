import { runLimitedProcess } from '../run-limited-process.js';
import {
  baseEnvironment,
  type CommandRequest,
  type CommandResult,
  type ProcessLaunch,
  type ProcessRequest,
  type Sandbox,
} from '../sandbox.js';
import { type MountBinding, mountHostPath } from '../workspace-view.js';

/**
 * A `Sandbox` that runs commands as plain child processes in the host work directory, for
 * platforms without bubblewrap. It does NOT isolate: a script can read and write every file the
 * host user can, including other sessions' files and the system records. Setting the working
 * directory is not isolation (F-2). It does enforce time and output limits, clear the host
 * environment, watch the disk quota of the writable directories (no process limit: the host user's
 * processes would count too), and rewrite the view's virtual paths (`/work`, `/skills/<name>`, `/mounts/<name>`)
 * in the command to host paths, so that skill instructions work unchanged. Use it only for
 * trusted scripts.
 */
export class ProcessSandbox implements Sandbox {
  readonly kind = 'process';
  readonly isolating = false;

  runCommand(request: CommandRequest): Promise<CommandResult> {
    const work = workMount(request.view.mounts);
    return runLimitedProcess({
      command: '/bin/sh',
      args: ['-c', rewriteVirtualPaths(request.command, request.view.mounts)],
      env: { ...baseEnvironment(work), PATH: process.env.PATH ?? '/usr/bin:/bin', ...(request.environment ?? {}) },
      cwd: work,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.diskQuotaBytes === undefined
        ? {}
        : {
            diskWatch: {
              directories: request.view.mounts.filter((mount) => mount.writable).map(mountHostPath),
              quotaBytes: request.diskQuotaBytes,
            },
          }),
    });
  }

  launch(request: ProcessRequest): ProcessLaunch {
    const work = workMount(request.view.mounts);
    // A command or argument inside one of the request's host directories is a host path already
    // (this adapter shows them where they are): rewriting it would turn a host path that happens
    // to start like a virtual one (a Node under `/work/…`) into a path that does not exist.
    const rewrite = (text: string) =>
      insideAny(text, request.readOnlyPaths ?? []) ? text : rewriteVirtualPaths(text, request.view.mounts);
    return {
      command: rewrite(request.command),
      args: request.args.map(rewrite),
      env: { ...baseEnvironment(work), PATH: process.env.PATH ?? '/usr/bin:/bin', ...(request.environment ?? {}) },
      cwd: work,
    };
  }
}

/** Whether `text` is one of `directories` or a path below one of them. */
function insideAny(text: string, directories: readonly string[]): boolean {
  return directories.some((directory) => {
    const base = directory.endsWith('/') ? directory.slice(0, -1) : directory;
    return text === base || text.startsWith(`${base}/`);
  });
}

function workMount(mounts: readonly MountBinding[]): string {
  const work = mounts.find((mount) => mount.virtualPath === '/work');
  if (!work) throw new Error('a sandboxed command needs a view with a /work mount');
  return mountHostPath(work);
}

/**
 * Replaces each mount's virtual path, where it starts a path token, by its host path. A
 * convenience for the non-isolating adapter only; bubblewrap shows the real virtual paths.
 */
export function rewriteVirtualPaths(text: string, mounts: readonly MountBinding[]): string {
  let result = text;
  const ordered = [...mounts].sort((left, right) => right.virtualPath.length - left.virtualPath.length);
  for (const mount of ordered) {
    const escaped = mount.virtualPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`(^|[\\s'"=:(])${escaped}(?=$|[/\\s'";:)])`, 'g');
    result = result.replace(pattern, (_match, prefix: string) => `${prefix}${mountHostPath(mount)}`);
  }
  return result;
}
