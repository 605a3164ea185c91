import { AgentLoomError, hasErrorCode } from './agentloom-error.js';

/** The journal of a run was written in a format this version cannot read (B-6). */
export class UnsupportedJournalFormatError extends AgentLoomError {
  readonly runId: string;
  readonly formatVersion: unknown;

  constructor(runId: string, formatVersion: unknown) {
    super('unsupported-journal-format', `Run ${runId} uses journal format ${String(formatVersion)}, which this SDK cannot read.`);
    this.runId = runId;
    this.formatVersion = formatVersion;
  }

  static override isInstance(error: unknown): error is UnsupportedJournalFormatError {
    return hasErrorCode(error, 'unsupported-journal-format');
  }
}

/**
 * A store operation failed for a reason other than fencing (I/O, corrupt data, closed store).
 * `transient` says whether the same call may succeed if tried again: a lost connection, a server
 * restart, a lock held by another process, a failed disk write. The engine retries its own writes
 * on a transient failure within the run's lease, so a blip costs time, never a duplicate call.
 */
export class StoreFailureError extends AgentLoomError {
  /** Whether trying the same call again may succeed. */
  readonly transient: boolean;

  constructor(message: string, options?: { cause?: unknown; transient?: boolean }) {
    super('store-failure', message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.transient = options?.transient ?? false;
  }

  static override isInstance(error: unknown): error is StoreFailureError {
    return hasErrorCode(error, 'store-failure');
  }
}

/**
 * A run that has ended (or does not exist) takes no more input: text sent after the end is a new
 * question, for a new run (S-2).
 */
export class RunNotActiveError extends AgentLoomError {
  readonly runId: string;
  readonly status: string;

  constructor(runId: string, status: string) {
    super('run-not-active', `Run ${runId} is ${status}; it takes no more input. Start a new run instead.`);
    this.runId = runId;
    this.status = status;
  }

  static override isInstance(error: unknown): error is RunNotActiveError {
    return hasErrorCode(error, 'run-not-active');
  }
}

/**
 * The SQLite file a store opened was deleted or replaced while the store was in use: its writes
 * would go to a file nobody else sees, and another worker could run the same run again. The store
 * refuses every further call; open a new store on the path.
 */
export class StoreFileChangedError extends AgentLoomError {
  readonly path: string;

  constructor(path: string, detail: string) {
    super('store-file-changed', `The SQLite run store file ${path} ${detail}; this store refuses further use.`);
    this.path = path;
  }

  static override isInstance(error: unknown): error is StoreFileChangedError {
    return hasErrorCode(error, 'store-file-changed');
  }
}
