import { join } from 'node:path';
import { WorkspaceAccessError } from './sandbox-errors.js';

/** A host user id and group id (the owner of a view's files, the user a sandbox runs as). */
export interface HostUser {
  uid: number;
  gid: number;
}

/** What kind of directory a mount shows. */
export type MountKind = 'work' | 'skill' | 'mount';

/**
 * One directory of the authorised view (F-1): where it appears (`virtualPath`), where it is on the
 * host, and whether it may be changed. File tools, scripts and sandboxed MCP servers all see the
 * same mounts at the same virtual paths.
 */
export interface MountBinding {
  kind: MountKind;
  /** Absolute path inside the view: `/work`, `/skills/<name>` or `/mounts/<name>`. */
  virtualPath: string;
  /** A trusted host directory (configuration, never model input). */
  base: string;
  /**
   * Components below `base`, opened one by one without following links (the work directory
   * below the agent root), so that a link planted on the way cannot redirect the mount.
   */
  baseSegments: readonly string[];
  writable: boolean;
  /**
   * The host user that must own the mount's root and everything the file tools create in it
   * (the sandbox's user on a root host), so that scripts can change what the tools wrote.
   */
  owner?: HostUser;
}

/** The run and session a view belongs to; taken from the trusted tool context, never from the model. */
export interface WorkspaceScope {
  sessionId: string;
  runId: string;
}

/** Everything one run may see of the file system (F-2): its work directory plus read-only skills and mounts. */
export interface WorkspaceView {
  scope: WorkspaceScope;
  mounts: readonly MountBinding[];
}

/** A path resolved to a location inside one mount. */
export interface ResolvedEntry {
  kind: 'entry';
  mount: MountBinding;
  /** Components below the mount, without `.`, `..` or empty parts. */
  segments: readonly string[];
  /** The normalised virtual path, as the model should see it. */
  virtualPath: string;
}

/** A virtual directory above the mounts (`/`, `/skills`, `/mounts`): it can only be listed. */
export interface ResolvedMountDirectory {
  kind: 'mount-directory';
  virtualPath: string;
  entries: readonly string[];
}

/** Where a model-supplied path leads within a view. */
export type ResolvedPath = ResolvedEntry | ResolvedMountDirectory;

const maximumPathLength = 4096;
const maximumSegmentBytes = 255;

/** The host path of a mount's root. */
export function mountHostPath(mount: MountBinding): string {
  return join(mount.base, ...mount.baseSegments);
}

/**
 * Resolves a model-supplied path against a view, lexically: relative paths start at `/work`,
 * `.` and `..` are folded, and anything that does not land inside a mount is refused with a
 * typed `WorkspaceAccessError` (F-2: a model path never widens access). Links are not looked at
 * here; the confined file operations refuse them while opening.
 */
export function resolveVirtualPath(view: WorkspaceView, input: string): ResolvedPath {
  if (typeof input !== 'string' || input.length === 0 || input.length > maximumPathLength || input.includes('\0')) {
    throw new WorkspaceAccessError('invalid-path', String(input), 'give a non-empty path without NUL bytes');
  }
  const absolute = input.startsWith('/') ? input : `/work/${input}`;
  const parts: string[] = [];
  for (const part of absolute.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw new WorkspaceAccessError('outside-view', input, 'the path climbs above the root of the view');
      parts.pop();
      continue;
    }
    if (Buffer.byteLength(part) > maximumSegmentBytes)
      throw new WorkspaceAccessError('invalid-path', input, 'a name is too long');
    parts.push(part);
  }
  const virtualPath = `/${parts.join('/')}`;
  const mount = longestMount(view, parts);
  if (mount) {
    const depth = mount.virtualPath.split('/').length - 1;
    return { kind: 'entry', mount, segments: parts.slice(depth), virtualPath };
  }
  const entries = childNames(view, parts);
  if (entries.length > 0) return { kind: 'mount-directory', virtualPath, entries };
  throw new WorkspaceAccessError('outside-view', input, 'only /work, /skills and /mounts are visible');
}

function longestMount(view: WorkspaceView, parts: readonly string[]): MountBinding | undefined {
  let best: MountBinding | undefined;
  for (const mount of view.mounts) {
    const mountParts = mount.virtualPath.split('/').slice(1);
    if (mountParts.length > parts.length) continue;
    if (!mountParts.every((part, index) => parts[index] === part)) continue;
    if (!best || mountParts.length > best.virtualPath.split('/').length - 1) best = mount;
  }
  return best;
}

/** Names directly below a virtual directory that leads to mounts (`/` → `work`, `skills` …). */
function childNames(view: WorkspaceView, parts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const mount of view.mounts) {
    const mountParts = mount.virtualPath.split('/').slice(1);
    if (mountParts.length <= parts.length) continue;
    if (!parts.every((part, index) => mountParts[index] === part)) continue;
    names.add(mountParts[parts.length] as string);
  }
  return [...names].sort();
}

/** Whether `name` can be used as a single path component of a mount (`/skills/<name>`). */
export function isSafeMountName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(name) && name !== '.' && name !== '..';
}
