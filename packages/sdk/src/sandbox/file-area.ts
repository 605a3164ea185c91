import { type FileHandle, lstat, mkdir, rmdir, unlink } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { InvalidConfigurationError } from '../core/errors/index.js';
import {
  descriptorPath,
  errorCode,
  listEntries,
  openDirectoryIn,
  openRegularFile,
  readLimited,
  replaceFile,
  withDirectory,
  withParentDirectory,
} from './confined-fs.js';
import { FileNotFoundError, WorkspaceAccessError } from './sandbox-errors.js';
import {
  isSafeMountName,
  type MountBinding,
  type ResolvedEntry,
  resolveVirtualPath,
  type WorkspaceView,
} from './workspace-view.js';

/** Options of `createFileArea`. */
export interface FileAreaOptions {
  /** The area's host directory (trusted configuration, never user input). */
  directory: string;
  /** The area's name, the first component of the paths it shows in errors (`/wiki/notes.md`). */
  name: string;
  /** Whether `write`, `makeDirectory` and `remove` are allowed. Default false. */
  writable?: boolean;
}

/** One entry of a listed folder. Links and special files are listed, never followed. */
export interface FileAreaEntry {
  name: string;
  type: 'file' | 'directory' | 'symbolic-link' | 'other';
  /** Bytes of a file (0 for the others). */
  size: number;
  /** Last change, ISO 8601. */
  modifiedAt: string;
}

/** What a path names: a file with its size, a folder, or nothing. */
export type FileAreaStatus =
  | { type: 'file'; size: number; modifiedAt: string }
  | { type: 'directory'; modifiedAt: string }
  | { type: 'other' }
  | undefined;

/** How much an area holds. */
export interface FileAreaUsage {
  files: number;
  directories: number;
  bytes: number;
}

/**
 * A host's access to one directory (an agent's `wiki/` or `files/`, a session's work directory)
 * with exactly the confinement of the model's file tools (F-2): a path is resolved
 * lexically inside the area (`..` above it is refused with `WorkspaceAccessError` `outside-view`),
 * then opened one component at a time without following a link; links and files with several hard
 * links are refused; writes are atomic (temporary file + rename). It is the same code the file
 * tools run, offered to hosts (the platform's file routes) so that there is one confinement.
 */
export class FileArea {
  readonly directory: string;
  readonly name: string;
  readonly writable: boolean;
  private readonly view: WorkspaceView;

  constructor(options: FileAreaOptions) {
    const problems: { path: string; message: string }[] = [];
    if (typeof options.directory !== 'string' || !isAbsolute(options.directory))
      problems.push({ path: 'directory', message: 'must be an absolute path' });
    if (typeof options.name !== 'string' || !isSafeMountName(options.name))
      problems.push({ path: 'name', message: 'letters, digits, _, - and . only (not . or ..)' });
    if (problems.length > 0) throw new InvalidConfigurationError('file area', problems);
    this.directory = resolve(options.directory);
    this.name = options.name;
    this.writable = options.writable ?? false;
    const mount: MountBinding = {
      kind: 'mount',
      virtualPath: `/${options.name}`,
      base: this.directory,
      baseSegments: [],
      writable: this.writable,
    };
    this.view = { scope: { sessionId: '', runId: '' }, mounts: [mount] };
  }

  /**
   * Resolves a path relative to the area ('' is its root). Throws `WorkspaceAccessError` for a
   * path that leaves it or is not acceptable (empty component, NUL byte, too long).
   */
  resolve(path: string): ResolvedEntry {
    if (typeof path !== 'string' || path.includes('\0'))
      throw new WorkspaceAccessError('invalid-path', String(path), 'give a path without NUL bytes');
    const resolved = resolveVirtualPath(this.view, `/${this.name}/${path}`);
    if (resolved.kind !== 'entry') throw new WorkspaceAccessError('outside-view', path, `the path leaves /${this.name}`);
    return resolved;
  }

  /** The normalised path of an entry relative to the area ('' for its root). */
  relativePath(path: string): string {
    return this.resolve(path).segments.join('/');
  }

  /** What `path` names, without following a link; `undefined` when nothing (or its folder is missing). */
  async stat(path: string): Promise<FileAreaStatus> {
    const entry = this.resolve(path);
    try {
      if (entry.segments.length === 0) {
        const status = await lstat(this.directory);
        return status.isDirectory() ? { type: 'directory', modifiedAt: status.mtime.toISOString() } : { type: 'other' };
      }
      return await withParentDirectory(entry, false, async (directory, name) => {
        const status = await lstat(descriptorPath(directory, name as string)).catch((error: unknown) => {
          if (errorCode(error) === 'ENOENT') return undefined;
          throw error;
        });
        if (!status) return undefined;
        if (status.isFile()) return { type: 'file', size: status.size, modifiedAt: status.mtime.toISOString() } as const;
        if (status.isDirectory()) return { type: 'directory', modifiedAt: status.mtime.toISOString() } as const;
        if (status.isSymbolicLink())
          throw new WorkspaceAccessError('symbolic-link', entry.virtualPath, 'the entry is a symbolic link');
        return { type: 'other' } as const;
      });
    } catch (error) {
      if (FileNotFoundError.isInstance(error) || errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Lists a folder (the root when `path` is ''): names, kinds, sizes; links are shown, never followed. */
  async list(path = ''): Promise<FileAreaEntry[]> {
    const entry = this.resolve(path);
    return withDirectory(entry, async (directory) => {
      const entries = await listEntries(directory);
      const listed: FileAreaEntry[] = [];
      for (const item of entries) {
        if (item.name.endsWith('.agentloom-tmp')) continue;
        const status = await lstat(descriptorPath(directory, item.name)).catch(() => undefined);
        if (!status) continue;
        listed.push({
          name: item.name,
          type: item.type,
          size: item.type === 'file' ? status.size : 0,
          modifiedAt: status.mtime.toISOString(),
        });
      }
      return listed;
    });
  }

  /** Reads a regular file, at most `maximumBytes` of it. */
  async read(path: string, maximumBytes: number): Promise<{ content: Buffer; size: number; truncated: boolean }> {
    const entry = this.fileEntry(path);
    return withParentDirectory(entry, false, async (directory, name) => {
      const handle = await openRegularFile(directory, name as string, entry.virtualPath);
      if (!handle) throw new FileNotFoundError(entry.virtualPath);
      try {
        return await readLimited(handle, maximumBytes);
      } finally {
        await handle.close();
      }
    });
  }

  /** Writes a file atomically, making its missing folders; a link at the name is refused, never replaced. */
  async write(path: string, content: Buffer): Promise<void> {
    const entry = this.writableEntry(path);
    await mkdir(this.directory, { recursive: true });
    await withParentDirectory(entry, true, (directory, name) =>
      replaceFile(directory, name as string, entry.virtualPath, content),
    );
  }

  /** Makes a folder (and its missing parents); an existing folder is left as it is. */
  async makeDirectory(path: string): Promise<void> {
    const entry = this.writableEntry(path);
    await mkdir(this.directory, { recursive: true });
    await withParentDirectory(entry, true, async (directory, name) => {
      await mkdir(descriptorPath(directory, name as string)).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error;
      });
      // Open it as a folder without following a link: a file or link at the name is refused.
      const opened = await openDirectoryIn(directory, name as string, entry.virtualPath);
      await opened.close();
    });
  }

  /**
   * Removes a file, a link (the link itself), or a folder with everything in it, never following
   * a link on the way. Throws `FileNotFoundError` when there is nothing at `path`.
   */
  async remove(path: string): Promise<'file' | 'directory'> {
    const entry = this.writableEntry(path);
    return withParentDirectory(entry, false, async (directory, name) => {
      const status = await lstat(descriptorPath(directory, name as string)).catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT') throw new FileNotFoundError(entry.virtualPath);
        throw error;
      });
      if (!status.isDirectory()) {
        await unlink(descriptorPath(directory, name as string));
        return 'file';
      }
      await removeTree(directory, name as string, entry.virtualPath);
      return 'directory';
    });
  }

  /** Counts the area's files and folders and their bytes (links and special files are not counted). */
  async usage(): Promise<FileAreaUsage> {
    const usage: FileAreaUsage = { files: 0, directories: 0, bytes: 0 };
    const entry = this.resolve('');
    try {
      await withDirectory(entry, (directory) => countTree(directory, usage, entry.virtualPath));
    } catch (error) {
      if (!FileNotFoundError.isInstance(error)) throw error;
    }
    return usage;
  }

  private fileEntry(path: string): ResolvedEntry {
    const entry = this.resolve(path);
    if (entry.segments.length === 0) throw new FileNotFoundError(entry.virtualPath, 'is a directory');
    return entry;
  }

  private writableEntry(path: string): ResolvedEntry {
    const entry = this.fileEntry(path);
    if (!this.writable) throw new WorkspaceAccessError('read-only', entry.virtualPath, `/${this.name} is read-only`);
    return entry;
  }
}

/** Removes the folder `name` of `parent` and its contents, one descriptor at a time. */
async function removeTree(parent: FileHandle, name: string, shownPath: string): Promise<void> {
  const directory = await openDirectoryIn(parent, name, shownPath);
  try {
    for (const item of await listEntries(directory)) {
      if (item.type === 'directory') await removeTree(directory, item.name, `${shownPath}/${item.name}`);
      else await unlink(descriptorPath(directory, item.name));
    }
  } finally {
    await directory.close();
  }
  await rmdir(descriptorPath(parent, name));
}

async function countTree(directory: FileHandle, usage: FileAreaUsage, shownPath: string): Promise<void> {
  for (const item of await listEntries(directory)) {
    if (item.type === 'directory') {
      usage.directories += 1;
      const child = await openDirectoryIn(directory, item.name, `${shownPath}/${item.name}`);
      try {
        await countTree(child, usage, `${shownPath}/${item.name}`);
      } finally {
        await child.close();
      }
    } else if (item.type === 'file') {
      usage.files += 1;
      usage.bytes += (await lstat(descriptorPath(directory, item.name)).catch(() => ({ size: 0 }))).size;
    }
  }
}

/** Creates a confined file area (see `FileArea`); validates the options and throws `InvalidConfigurationError`. */
export function createFileArea(options: FileAreaOptions): FileArea {
  return new FileArea(options);
}
