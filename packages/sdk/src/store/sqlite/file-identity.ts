import { statSync } from 'node:fs';
import { StoreFileChangedError } from '../../core/errors/index.js';

/** Which file a path named when the store opened it: device and inode. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** The identity of the file at `path` now, or `undefined` when there is none. */
export function readFileIdentity(path: string): FileIdentity | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats ? { dev: stats.dev, ino: stats.ino } : undefined;
}

/**
 * Throws `StoreFileChangedError` unless `path` still names the file the store opened. A file
 * deleted or replaced under a live store would otherwise take writes nobody else sees, and
 * another worker would start the same run again on the new file (issue 18).
 */
export function assertSameFile(path: string, opened: FileIdentity): void {
  const current = readFileIdentity(path);
  if (!current) throw new StoreFileChangedError(path, 'was deleted');
  if (current.dev !== opened.dev || current.ino !== opened.ino)
    throw new StoreFileChangedError(path, 'was replaced by another file');
}
