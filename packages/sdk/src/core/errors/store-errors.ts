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

/** A store operation failed for a reason other than fencing (I/O, corrupt data, closed store). */
export class StoreFailureError extends AgentLoomError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('store-failure', message, options);
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
