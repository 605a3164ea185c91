import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, readlink, rename, unlink } from 'node:fs/promises';
import type { HostUser } from './sandbox.js';
import { FileNotFoundError, FileTooLargeError, SandboxUnavailableError, WorkspaceAccessError } from './sandbox-errors.js';
import type { MountBinding, ResolvedEntry } from './workspace-view.js';

/*
 * Node has no openat(2). The same guarantee comes from `/proc/self/fd/<fd>/<name>`: the kernel
 * resolves `<name>` inside the directory the descriptor holds, whatever happened to the path that
 * opened it. Every step below opens one component with O_NOFOLLOW from the previous descriptor,
 * so a link anywhere on the way is refused, and a directory swapped mid-operation cannot redirect
 * it. After opening, the descriptor's real path is checked to be inside the mount (defence in depth).
 */

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = constants;
const directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/** Where a descriptor's directory can be addressed by path. */
export function descriptorPath(handle: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${handle.fd}` : `/proc/self/fd/${handle.fd}/${name}`;
}

/** An open mount root with its real host path, for containment checks. */
export interface OpenedRoot {
  handle: FileHandle;
  realPath: string;
}

/** One entry of a listed directory. */
export interface DirectoryEntry {
  name: string;
  type: 'file' | 'directory' | 'symbolic-link' | 'other';
}

/**
 * Opens the root of a mount: its trusted base, then each base segment without following links.
 * With `create`, missing directories are made (the work directory is created on first use) and the
 * mount's root is given to its `owner`.
 */
export async function openMountRoot(mount: MountBinding, create: boolean): Promise<OpenedRoot> {
  if (create) await mkdir(mount.base, { recursive: true });
  let handle: FileHandle;
  try {
    handle = await open(mount.base, O_RDONLY | O_DIRECTORY);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new FileNotFoundError(mount.virtualPath, 'this mount has no directory yet');
    throw error;
  }
  try {
    handle = await descend(handle, mount.baseSegments, create, mount.virtualPath);
    if (create && mount.owner) await ensureOwner(handle, mount.owner);
    const realPath = await readlink(descriptorPath(handle)).catch((error: unknown) => {
      throw new SandboxUnavailableError('confined file access needs /proc/self/fd (Linux)', { cause: error });
    });
    return { handle, realPath };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

/**
 * Opens the directory `segments` below `start` one component at a time, never following a link;
 * closes `start` (and every intermediate descriptor) and returns the last one. Directories it
 * creates are given to `owner` (through their descriptor, so a swap cannot redirect the change).
 */
export async function descend(
  start: FileHandle,
  segments: readonly string[],
  create: boolean,
  shownPath: string,
  owner?: HostUser,
): Promise<FileHandle> {
  let current = start;
  for (const segment of segments) {
    try {
      const created = create ? await mkdir(descriptorPath(current, segment)).then(() => true, ignoreExists) : false;
      const next = await openDirectoryIn(current, segment, shownPath);
      if (created && owner)
        await ensureOwner(next, owner).catch(async (error: unknown) => {
          await next.close();
          throw error;
        });
      await current.close();
      current = next;
    } catch (error) {
      await current.close().catch(() => {});
      throw error;
    }
  }
  return current;
}

/** Opens the directory `name` inside `parent` without following a link. */
export async function openDirectoryIn(parent: FileHandle, name: string, shownPath: string): Promise<FileHandle> {
  try {
    return await open(descriptorPath(parent, name), directoryFlags);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') throw new WorkspaceAccessError('symbolic-link', shownPath, `"${name}" is a symbolic link`);
    if (code === 'ENOTDIR') {
      // Tell a link from a file; the name may change again meanwhile (a race), which is not found.
      const status = await lstat(descriptorPath(parent, name)).catch(() => undefined);
      if (status?.isSymbolicLink()) throw new WorkspaceAccessError('symbolic-link', shownPath, `"${name}" is a symbolic link`);
      throw new FileNotFoundError(shownPath, status ? `"${name}" is not a directory` : `"${name}" changed while it was opened`);
    }
    if (code === 'ENOENT') throw new FileNotFoundError(shownPath);
    throw error;
  }
}

/** Checks that an open descriptor still lies inside the mount root (catches directories moved away). */
export async function assertInside(root: OpenedRoot, handle: FileHandle, shownPath: string): Promise<void> {
  const real = await readlink(descriptorPath(handle));
  if (real !== root.realPath && !real.startsWith(`${root.realPath}/`)) {
    throw new WorkspaceAccessError('outside-view', shownPath, 'the file resolved outside its mount');
  }
}

/** Runs `work` with the directory that holds the entry's last component (created when asked). */
export async function withParentDirectory<T>(
  entry: ResolvedEntry,
  create: boolean,
  work: (directory: FileHandle, name: string | undefined, root: OpenedRoot) => Promise<T>,
): Promise<T> {
  const root = await openMountRoot(entry.mount, create && entry.mount.kind === 'work');
  const parentSegments = entry.segments.slice(0, -1);
  let directory: FileHandle | undefined;
  try {
    directory = await descend(root.handle, parentSegments, create, entry.virtualPath, entry.mount.owner);
    await assertInside(root, directory, entry.virtualPath);
    return await work(directory, entry.segments.at(-1), root);
  } finally {
    await directory?.close().catch(() => {});
  }
}

/** Opens the entry's directory itself (the mount root when it has no segments). */
export async function withDirectory<T>(
  entry: ResolvedEntry,
  work: (directory: FileHandle, root: OpenedRoot) => Promise<T>,
): Promise<T> {
  const root = await openMountRoot(entry.mount, entry.mount.kind === 'work');
  let directory: FileHandle | undefined;
  try {
    directory = await descend(root.handle, entry.segments, false, entry.virtualPath);
    await assertInside(root, directory, entry.virtualPath);
    return await work(directory, root);
  } finally {
    await directory?.close().catch(() => {});
  }
}

/**
 * Opens a regular file in `directory` for reading: never through a link (O_NOFOLLOW), never a
 * device or pipe (O_NONBLOCK, then fstat), never a file with several hard links (it may be a file
 * from outside the view). Returns `undefined` when it does not exist.
 */
export async function openRegularFile(directory: FileHandle, name: string, shownPath: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(descriptorPath(directory, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new WorkspaceAccessError('symbolic-link', shownPath, 'the file is a symbolic link');
    // A Unix socket cannot be opened at all.
    if (code === 'ENXIO') throw new WorkspaceAccessError('not-a-regular-file', shownPath, 'not a regular file');
    throw error;
  }
  try {
    const status = await handle.stat();
    if (status.isDirectory()) throw new FileNotFoundError(shownPath, 'is a directory');
    if (!status.isFile()) throw new WorkspaceAccessError('not-a-regular-file', shownPath, 'not a regular file');
    if (status.nlink > 1) throw new WorkspaceAccessError('hard-link', shownPath, `the file has ${status.nlink} hard links`);
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

/** Reads at most `maximumBytes` of a file opened by `openRegularFile`. */
export async function readLimited(
  handle: FileHandle,
  maximumBytes: number,
): Promise<{ content: Buffer; size: number; truncated: boolean }> {
  const { size } = await handle.stat();
  const length = Math.min(size, maximumBytes);
  const buffer = Buffer.alloc(length);
  let offset = 0;
  while (offset < length) {
    const { bytesRead } = await handle.read(buffer, offset, length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return { content: buffer.subarray(0, offset), size, truncated: size > offset };
}

/** Lists a directory without following anything: links are reported as links. */
export async function listEntries(directory: FileHandle): Promise<DirectoryEntry[]> {
  const entries = await readdir(descriptorPath(directory), { withFileTypes: true });
  return entries
    .map((entry) => ({
      name: entry.name,
      type: entry.isFile()
        ? ('file' as const)
        : entry.isDirectory()
          ? ('directory' as const)
          : entry.isSymbolicLink()
            ? ('symbolic-link' as const)
            : ('other' as const),
    }))
    .sort((left, right) => left.name.localeCompare(right.name));
}

/** Options of `replaceFile`. */
export interface ReplaceOptions {
  /**
   * Sees the previous content (or `undefined` when there was none) before anything changes: the
   * file checkpoint. Only with it is the previous content read, and then only up to
   * `maximumPreviousBytes` (a larger file is refused with `FileTooLargeError`, unchanged).
   */
  beforeReplace?: (previous: Buffer | undefined) => Promise<void>;
  maximumPreviousBytes?: number;
  /** The host user the new file is given to (the sandbox's user on a root host). */
  owner?: HostUser;
}

/**
 * Replaces (or creates) `name` in `directory` atomically: the new content goes to a temporary
 * file created with O_EXCL|O_NOFOLLOW in the same directory, is synced, then renamed over the
 * name (N-6). A link at the name is refused rather than replaced. The new file keeps the previous
 * one's permission bits, never its set-id bits.
 */
export async function replaceFile(
  directory: FileHandle,
  name: string,
  shownPath: string,
  content: Buffer,
  options: ReplaceOptions = {},
): Promise<{ previous: Buffer | undefined }> {
  const existing = await openRegularFile(directory, name, shownPath);
  let previous: Buffer | undefined;
  let mode = 0o644;
  if (existing) {
    try {
      const status = await existing.stat();
      mode = status.mode & 0o777;
      if (options.beforeReplace) {
        const limit = options.maximumPreviousBytes ?? Number.MAX_SAFE_INTEGER;
        if (status.size > limit)
          throw new FileTooLargeError(shownPath, status.size, limit, 'write_file (recording the file first)');
        previous = (await readLimited(existing, limit)).content;
      }
    } finally {
      await existing.close();
    }
  }
  await options.beforeReplace?.(previous);
  const temporaryName = `.${name.slice(0, 180)}.${randomBytes(6).toString('hex')}.agentloom-tmp`;
  const temporary = await open(descriptorPath(directory, temporaryName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode).catch(
    (error: unknown) => {
      // The directory was removed while the call held it (another process replaced it): nothing was written.
      if (errorCode(error) === 'ENOENT') throw new FileNotFoundError(shownPath, 'its directory was removed during the write');
      throw error;
    },
  );
  try {
    if (options.owner) await temporary.chown(options.owner.uid, options.owner.gid);
    await temporary.writeFile(content);
    await temporary.sync();
    await temporary.close();
    await rename(descriptorPath(directory, temporaryName), descriptorPath(directory, name));
  } catch (error) {
    await temporary.close().catch(() => {});
    await unlink(descriptorPath(directory, temporaryName)).catch(() => {});
    throw error;
  }
  await directory.sync().catch(() => {});
  return { previous };
}

/** Removes a regular file (never follows a link: unlink acts on the name itself). */
export async function removeFile(directory: FileHandle, name: string): Promise<void> {
  await unlink(descriptorPath(directory, name)).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
}

/** The `code` of a Node system error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;
}

function ignoreExists(error: unknown): false {
  if (errorCode(error) !== 'EEXIST') throw error;
  return false;
}

/** Gives an open file or directory to `owner` unless it has it already. */
async function ensureOwner(handle: FileHandle, owner: HostUser): Promise<void> {
  const status = await handle.stat();
  if (status.uid !== owner.uid || status.gid !== owner.gid) await handle.chown(owner.uid, owner.gid);
}
