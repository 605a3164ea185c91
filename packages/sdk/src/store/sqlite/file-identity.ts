import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
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
 * Refuses writes to a store whose file was deleted or replaced under it. Such a file would take
 * writes nobody else sees, and another worker would start the same run again on the new file
 * (issue 18). Two checks, by cost (issue 34):
 *
 * - `assertLinked`, before every owner commit: one `fstat` on a descriptor held on the opened
 *   file, which still has a name unless it was deleted or another file was renamed over it — the
 *   cases a commit must never land in. No path is resolved and nothing is allocated but the stat.
 * - `assertPath`, before every other write (lease renewals, acquisitions, creations, others'
 *   appends, deletions): the path still names the opened file, which also catches a file moved
 *   away while it keeps a name elsewhere, within a third of the owner's lease.
 *
 * Whatever either check finds stays: the store refuses every later write.
 */
export class StoreFileGuard {
  private readonly path: string;
  private readonly opened: FileIdentity;
  private readonly descriptor: number;
  private changed: StoreFileChangedError | undefined;
  private closed = false;

  constructor(path: string, opened: FileIdentity) {
    this.path = path;
    this.opened = opened;
    this.descriptor = openSync(path, 'r');
    const held = fstatSync(this.descriptor);
    if (held.dev !== opened.dev || held.ino !== opened.ino) {
      closeSync(this.descriptor);
      throw new StoreFileChangedError(path, 'was replaced by another file');
    }
  }

  /** Throws unless the opened file still has a name (the per-commit check). */
  assertLinked(): void {
    if (this.changed) throw this.changed;
    if (fstatSync(this.descriptor).nlink > 0) return;
    this.refuse(readFileIdentity(this.path) ? 'was replaced by another file' : 'was deleted');
  }

  /** Throws unless `path` still names the opened file. */
  assertPath(): void {
    if (this.changed) throw this.changed;
    const current = readFileIdentity(this.path);
    if (!current) this.refuse('was deleted');
    if (current.dev !== this.opened.dev || current.ino !== this.opened.ino) this.refuse('was replaced by another file');
  }

  /** Lets the descriptor go (once; a closed store may be closed again). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.descriptor);
  }

  private refuse(detail: string): never {
    this.changed = new StoreFileChangedError(this.path, detail);
    throw this.changed;
  }
}
