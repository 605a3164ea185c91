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
