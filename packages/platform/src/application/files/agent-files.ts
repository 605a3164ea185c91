import { createFileArea, type FileArea, type FileAreaEntry, FileNotFoundError, WorkspaceAccessError } from '@agentloom/sdk';
import type { AppRow } from '../../adapters/database/schema.js';
import { type AgentFileLimits, defaultAgentFileLimits } from '../../config/index.js';
import { type AgentFileArea, agentFileAreaDirectory } from '../../domain/agent-files.js';
import {
  appDeletingError,
  ConflictError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  TooLargeError,
  ValidationError,
} from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** What a path of a file area names: a folder with its entries, or a file with its bytes. */
export type FileAreaRead =
  | { kind: 'directory'; path: string; entries: FileAreaEntry[] }
  | { kind: 'file'; path: string; content: Buffer; size: number; modifiedAt: string };

/** The limits in force (configured, else the defaults). */
export function agentFileLimits(context: Pick<PlatformContext, 'config'>): AgentFileLimits {
  return context.config.agentFiles ?? defaultAgentFileLimits;
}

/**
 * The confined area of an agent's `wiki/` or `files/` (P-12.2). Only agents have them
 * (422 `not-an-agent`); an app being deleted takes no change (409 `app-deleting`).
 */
export function agentFileArea(app: Pick<AppRow, 'file_root' | 'kind' | 'state'>, area: AgentFileArea, change: boolean): FileArea {
  if (app.kind !== 'agent') throw new ValidationError('not-an-agent', 'Only agent apps have wiki and business files.');
  if (change && app.state !== 'active') throw appDeletingError();
  return createFileArea({ directory: agentFileAreaDirectory(app.file_root, area), name: area, writable: true });
}

/**
 * Turns the SDK's confinement refusals into domain refusals with stable codes: a path that leaves
 * the area is `path-outside-area` (400), an unacceptable one `invalid-path` (400), a link or a
 * special file `path-refused` (409), a read-only area `read-only` (403), nothing there
 * `file-not-found` (404). Anything else is rethrown.
 */
export async function confined<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (WorkspaceAccessError.isInstance(error)) {
      const details = { path: error.path, reason: error.reason };
      if (error.reason === 'outside-view')
        throw new InvalidRequestError('path-outside-area', 'The path leaves the file area.', details);
      if (error.reason === 'invalid-path') throw new InvalidRequestError('invalid-path', error.message, details);
      if (error.reason === 'read-only') throw new ForbiddenError('read-only', 'These files are read-only.', details);
      throw new ConflictError('path-refused', error.message, details);
    }
    if (FileNotFoundError.isInstance(error))
      throw new NotFoundError('file-not-found', 'No such file or folder.', { path: error.path });
    throw error;
  }
}

/** Reads a path of an area: a folder's listing ('' is the area itself) or a file's bytes (P-12.2). */
export function readAreaPath(area: FileArea, path: string, maximumBytes: number): Promise<FileAreaRead> {
  return confined(async () => {
    const relative = area.relativePath(path);
    const status = await area.stat(relative);
    if (!status) {
      // An area whose directory was never made (a session without a persistent sandbox) is empty.
      if (relative === '') return { kind: 'directory', path: '', entries: [] };
      throw new FileNotFoundError(`/${area.name}/${relative}`);
    }
    if (status.type === 'directory') return { kind: 'directory', path: relative, entries: await area.list(relative) };
    if (status.type !== 'file') throw new ConflictError('path-refused', 'Not a regular file or folder.', { path: relative });
    if (status.size > maximumBytes)
      throw new TooLargeError('file-too-large', `The file is larger than ${maximumBytes} bytes.`, {
        size: status.size,
        limitBytes: maximumBytes,
      });
    const read = await area.read(relative, maximumBytes);
    return { kind: 'file', path: relative, content: read.content, size: read.size, modifiedAt: status.modifiedAt };
  });
}

/**
 * Uploads a file to an area, replacing one of the same name atomically and making its missing
 * folders. Refused before anything is written: a file over `maxFileBytes` (413 `file-too-large`),
 * a new name that would take the area past `maxEntries` files and folders (422 `too-many-files`),
 * a folder at the name (409 `path-is-folder`).
 */
export function putAreaFile(
  context: Pick<PlatformContext, 'config'>,
  area: FileArea,
  path: string,
  content: Buffer,
): Promise<{ path: string; size: number; created: boolean }> {
  const limits = agentFileLimits(context);
  return confined(async () => {
    const relative = nonRootPath(area, path);
    if (content.length > limits.maxFileBytes) throw fileTooLarge(content.length, limits.maxFileBytes);
    const existing = await area.stat(relative);
    if (existing?.type === 'directory') throw new ConflictError('path-is-folder', 'A folder has this name.', { path: relative });
    if (!existing) await assertRoomFor(area, relative, limits.maxEntries);
    await area.write(relative, content);
    return { path: relative, size: content.length, created: !existing };
  });
}

/** Makes a folder (and its missing parents) in an area; an existing folder is left as it is. */
export function makeAreaFolder(
  context: Pick<PlatformContext, 'config'>,
  area: FileArea,
  path: string,
): Promise<{ path: string; created: boolean }> {
  const limits = agentFileLimits(context);
  return confined(async () => {
    const relative = nonRootPath(area, path);
    const existing = await area.stat(relative);
    if (existing && existing.type !== 'directory')
      throw new ConflictError('path-is-file', 'A file has this name.', { path: relative });
    if (!existing) await assertRoomFor(area, relative, limits.maxEntries);
    await area.makeDirectory(relative);
    return { path: relative, created: !existing };
  });
}

/** Deletes a file or a folder with everything in it (the area itself cannot be deleted). */
export function deleteAreaPath(area: FileArea, path: string): Promise<{ path: string; removed: 'file' | 'directory' }> {
  return confined(async () => {
    const relative = nonRootPath(area, path);
    return { path: relative, removed: await area.remove(relative) };
  });
}

function nonRootPath(area: FileArea, path: string): string {
  const relative = area.relativePath(path);
  if (relative === '') throw new InvalidRequestError('invalid-path', 'Name a file or folder inside the area.', { path });
  return relative;
}

/** The 413 of a file over the limit. */
export function fileTooLarge(size: number, limitBytes: number): TooLargeError {
  return new TooLargeError('file-too-large', `A file may be at most ${limitBytes} bytes.`, { size, limitBytes });
}

/** Refuses a new entry (and its missing folders) that would take the area past its limit. */
async function assertRoomFor(area: FileArea, relative: string, maxEntries: number): Promise<void> {
  const segments = relative.split('/');
  let missing = 1;
  for (let depth = segments.length - 1; depth >= 1; depth -= 1) {
    if (await area.stat(segments.slice(0, depth).join('/'))) break;
    missing += 1;
  }
  const usage = await area.usage();
  if (usage.files + usage.directories + missing > maxEntries)
    throw new ValidationError('too-many-files', `The area may hold at most ${maxEntries} files and folders.`, {
      entries: usage.files + usage.directories,
      limit: maxEntries,
    });
}
