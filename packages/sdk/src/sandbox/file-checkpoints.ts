import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from './confined-fs.js';

/** One recorded file change (N-6): what the file was before a write or edit changed it. */
export interface FileChange {
  /** Dense, increasing number within one log. */
  sequence: number;
  runId: string;
  sessionId: string;
  /** The tool call that made the change (stable across retries). */
  operationId: string;
  /** The virtual path, as in the view (`/work/report.md`). */
  path: string;
  /** Whether the file existed before; when not, rolling back removes it. */
  existed: boolean;
  /** Epoch milliseconds when the change was recorded (just before it was made). */
  at: number;
}

interface StoredChange extends FileChange {
  /** The previous content, base64; absent when the file did not exist. */
  before?: string;
}

const recordName = /^(\d{10})\.json$/;

/**
 * An append-only log of file contents before each change, kept in a system directory outside the
 * view (F-3), so that a run can roll its files back to a user message (N-6). A record is written
 * completely to a temporary name and then linked to its numbered name, which both reserves the
 * number and makes the record appear whole, or not at all, after a crash. A record always precedes
 * its change; a record whose change never happened restores identical content, which is harmless.
 */
export class FileCheckpointLog {
  /** The directory the records live in. */
  readonly directory: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(directory: string) {
    this.directory = directory;
  }

  /** Records the content `path` had before a change. Calls are serialised within this process. */
  record(change: Omit<FileChange, 'sequence' | 'existed' | 'at'>, previous: Buffer | undefined): Promise<FileChange> {
    const next = this.queue.then(() => this.write(change, previous));
    this.queue = next.catch(() => {});
    return next;
  }

  /** Every recorded change, oldest first. */
  async list(): Promise<FileChange[]> {
    return (await this.readAll()).map(({ before: _before, ...change }) => change);
  }

  /** The content before change `sequence`, or `undefined` when the file did not exist. */
  async contentBefore(sequence: number): Promise<Buffer | undefined> {
    const stored = (await this.readAll()).find((change) => change.sequence === sequence);
    return stored?.before === undefined ? undefined : Buffer.from(stored.before, 'base64');
  }

  /** Deletes the records of changes that were rolled back. */
  async discard(sequences: readonly number[]): Promise<void> {
    for (const sequence of sequences) {
      await unlink(join(this.directory, fileName(sequence))).catch((error: unknown) => {
        if (errorCode(error) !== 'ENOENT') throw error;
      });
    }
  }

  private async write(
    change: Omit<FileChange, 'sequence' | 'existed' | 'at'>,
    previous: Buffer | undefined,
  ): Promise<FileChange> {
    await mkdir(this.directory, { recursive: true });
    const temporary = join(this.directory, `.pending-${randomBytes(8).toString('hex')}`);
    let sequence = (await this.lastSequence()) + 1;
    const record: StoredChange = { ...change, sequence, existed: previous !== undefined, at: Date.now() };
    try {
      for (;;) {
        record.sequence = sequence;
        if (previous !== undefined) record.before = previous.toString('base64');
        const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
        try {
          await handle.writeFile(JSON.stringify(record));
          await handle.sync();
        } finally {
          await handle.close();
        }
        try {
          await link(temporary, join(this.directory, fileName(sequence)));
          break;
        } catch (error) {
          if (errorCode(error) !== 'EEXIST') throw error;
          sequence += 1;
        }
      }
    } finally {
      await unlink(temporary).catch(() => {});
    }
    const { before: _before, ...stored } = record;
    return stored;
  }

  private async lastSequence(): Promise<number> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    let last = 0;
    for (const name of names) {
      const match = recordName.exec(name);
      if (match) last = Math.max(last, Number(match[1]));
    }
    return last;
  }

  private async readAll(): Promise<StoredChange[]> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    const changes: StoredChange[] = [];
    for (const name of names.filter((candidate) => recordName.test(candidate))) {
      try {
        changes.push(JSON.parse(await readFile(join(this.directory, name), 'utf8')) as StoredChange);
      } catch {
        // A record cut short by a crash precedes a change that never happened: nothing to restore.
      }
    }
    return changes.sort((left, right) => left.sequence - right.sequence);
  }
}

function fileName(sequence: number): string {
  return `${String(sequence).padStart(10, '0')}.json`;
}
