import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from './confined-fs.js';

/** Which version of a file a run saw: enough to tell that it changed since (inode, size, mtime in ns). */
export interface FileVersion {
  ino: string;
  size: string;
  mtimeNs: string;
}

/**
 * What one run has read of its workspace (N-15, write only what was read): per virtual path, the
 * version of the file it last read or wrote. Kept in the workspace's system directory (F-3), one
 * small file per path written whole under a temporary name and renamed, so that a run taken over
 * after a crash on the same file root still knows what it read — reads are tool calls the taker
 * never repeats.
 */
export class FileReadLedger {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  /** The version of `path` this run last read or wrote, or `undefined`. */
  async seen(path: string): Promise<FileVersion | undefined> {
    try {
      const stored = JSON.parse(await readFile(this.fileOf(path), 'utf8')) as { path: string; version: FileVersion };
      return stored.path === path ? stored.version : undefined;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Records that this run now knows `path` at `version` (after reading or writing it). */
  async remember(path: string, version: FileVersion): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const target = this.fileOf(path);
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, JSON.stringify({ path, version }));
    await rename(temporary, target);
  }

  private fileOf(path: string): string {
    return join(this.directory, `${createHash('sha256').update(path).digest('hex').slice(0, 40)}.json`);
  }
}

/** Whether two versions are the same file content as far as the file system tells. */
export function sameVersion(left: FileVersion, right: FileVersion): boolean {
  return left.ino === right.ino && left.size === right.size && left.mtimeNs === right.mtimeNs;
}
