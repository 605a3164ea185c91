import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve, sep } from 'node:path';
import type { HostUser } from '../sandbox.js';
import { SandboxUnavailableError } from '../sandbox-errors.js';

/** The host user a root host runs sandboxes as when none is configured: `nobody`/`nogroup`. */
export const defaultSandboxUser: HostUser = { uid: 65534, gid: 65534 };

/**
 * Decides which host user the sandboxed programs act as. A sandbox must never act as host root:
 * the sandbox's own uid maps to the user that starts bubblewrap, so a root host starting it
 * directly would give scripts root's files and root's permission checks (a set-user-id file made
 * in `/work` would be a root one). A root host therefore drops to `configured` (default uid/gid
 * 65534) before starting bubblewrap; uid 0 is refused. Any other host runs sandboxes as itself
 * (it cannot switch users), and a `configured` user that differs is refused.
 */
export function resolveSandboxUser(configured: HostUser | undefined): { user: HostUser; switchUser: boolean } {
  const uid = process.getuid?.() ?? -1;
  const gid = process.getgid?.() ?? -1;
  if (uid !== 0) {
    if (configured && (configured.uid !== uid || configured.gid !== gid)) {
      throw new SandboxUnavailableError(
        `hostUser ${configured.uid}:${configured.gid} needs a root host; this process runs as ${uid}:${gid} and sandboxes run as that user`,
      );
    }
    return { user: { uid, gid }, switchUser: false };
  }
  const user = configured ?? defaultSandboxUser;
  if (!Number.isInteger(user.uid) || !Number.isInteger(user.gid) || user.uid <= 0 || user.gid <= 0) {
    throw new SandboxUnavailableError(
      `the sandbox must not act as host root: give BubblewrapSandbox a hostUser with a non-zero uid and gid (got ${user.uid}:${user.gid}); ` +
        'a dedicated user (e.g. `useradd --system agentloom-sandbox`) is better than nobody',
    );
  }
  return { user, switchUser: true };
}

/** Whether `user` (with no supplementary groups) has `bits` (r=4, w=2, x=1) on a file of this status. */
function permits(status: { uid: number; gid: number; mode: number }, user: HostUser, bits: number): boolean {
  if (user.uid === 0) return true;
  const shift = status.uid === user.uid ? 6 : status.gid === user.gid ? 3 : 0;
  return ((status.mode >> shift) & bits) === bits;
}

/**
 * Checks that `user` can reach `path` (search permission on every directory above it) and has
 * `access` on it, so that a host path a sandbox binds is refused with a clear message at once
 * instead of bubblewrap's "Can't find source path". Only meaningful when the sandbox switches users.
 */
export function assertReachable(path: string, user: HostUser, access: 'read' | 'write'): void {
  const absolute = resolve(path);
  const parts = absolute.split(sep).filter((part) => part !== '');
  let current: string = sep;
  for (const [index, part] of parts.entries()) {
    const status = statSync(current);
    if (!permits(status, user, 1)) {
      throw new SandboxUnavailableError(
        `the sandbox user (uid ${user.uid}) cannot reach ${absolute}: ${current} is not searchable for it; ` +
          `allow it (chmod o+x ${current}) or keep the agent's files and skills elsewhere`,
      );
    }
    current = join(current, part);
    if (index === parts.length - 1) {
      const leaf = statSync(current);
      const bits = (access === 'write' ? 2 : 0) | 4 | (leaf.isDirectory() ? 1 : 0);
      if (!permits(leaf, user, bits)) {
        throw new SandboxUnavailableError(
          `the sandbox user (uid ${user.uid}) cannot ${access} ${absolute}; make it ${access === 'write' ? 'writable' : 'readable'} for that user`,
        );
      }
    }
  }
}

/** The absolute path of a program found on the host `PATH`, or `undefined`. */
export function findExecutable(name: string): string | undefined {
  if (name.includes('/')) return resolve(name);
  for (const directory of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
