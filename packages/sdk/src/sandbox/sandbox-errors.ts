import { AgentLoomError, hasErrorCode } from '../core/errors/agentloom-error.js';

/**
 * Why a path was refused. Every refusal of the file tools, the script runner and the workspace
 * carries one of these, so that tests and callers branch on a value, never on message text.
 */
export type WorkspaceRefusalReason =
  /** The path leaves the authorised view: traversal above a mount, or an absolute path outside it (F-2). */
  | 'outside-view'
  /** The path is not acceptable at all: empty, too long, or containing a NUL byte. */
  | 'invalid-path'
  /** A component of the path is a symbolic link; file tools never follow links. */
  | 'symbolic-link'
  /** The file has more than one hard link, so it may be a file from outside the view. */
  | 'hard-link'
  /** The path is in a read-only mount (skills) and the call would change it (K-2). */
  | 'read-only'
  /** The path names a device, pipe or socket rather than a regular file or directory. */
  | 'not-a-regular-file'
  /** The call comes from another session or run than the one the capability is bound to (F-2). */
  | 'other-scope';

/**
 * A file operation was refused because it would reach outside the authorised file view (F-2, F-3).
 * Never retryable: the same path is refused again.
 */
export class WorkspaceAccessError extends AgentLoomError {
  readonly reason: WorkspaceRefusalReason;
  /** The path as the caller (usually the model) gave it. */
  readonly path: string;
  /** Read by the engine's failure classification: a refusal is final. */
  readonly retryable = false;

  constructor(reason: WorkspaceRefusalReason, path: string, detail: string) {
    super('workspace-access-denied', `Access to "${path}" refused (${reason}): ${detail}`);
    this.reason = reason;
    this.path = path;
  }

  static override isInstance(error: unknown): error is WorkspaceAccessError {
    return hasErrorCode(error, 'workspace-access-denied');
  }
}

/** A path inside the view names nothing (or a directory where a file was expected, or the reverse). */
export class FileNotFoundError extends AgentLoomError {
  readonly path: string;
  readonly retryable = false;

  constructor(path: string, detail = 'no such file or directory') {
    super('file-not-found', `"${path}": ${detail}`);
    this.path = path;
  }

  static override isInstance(error: unknown): error is FileNotFoundError {
    return hasErrorCode(error, 'file-not-found');
  }
}

/** An edit could not be applied: the text to replace is missing, or appears more than once. */
export class FileEditConflictError extends AgentLoomError {
  readonly path: string;
  readonly occurrences: number;
  readonly retryable = false;

  constructor(path: string, occurrences: number) {
    super(
      'file-edit-conflict',
      occurrences === 0
        ? `"${path}": the text to replace was not found; read the file and copy the text exactly`
        : `"${path}": the text to replace appears ${occurrences} times; give more context or set replaceAll`,
    );
    this.path = path;
    this.occurrences = occurrences;
  }

  static override isInstance(error: unknown): error is FileEditConflictError {
    return hasErrorCode(error, 'file-edit-conflict');
  }
}

/**
 * A file is larger than what a file tool may load whole: `edit_file` edits files up to the
 * workspace's `editBytes`, and `write_file` (with checkpoints on) replaces only files it can
 * record first. Never retryable: the model should work on such a file with `run_command`.
 */
export class FileTooLargeError extends AgentLoomError {
  readonly path: string;
  readonly size: number;
  readonly limit: number;
  readonly retryable = false;

  constructor(path: string, size: number, limit: number, action: string) {
    super('file-too-large', `"${path}" has ${size} bytes; ${action} handles files up to ${limit} bytes`);
    this.path = path;
    this.size = size;
    this.limit = limit;
  }

  static override isInstance(error: unknown): error is FileTooLargeError {
    return hasErrorCode(error, 'file-too-large');
  }
}

/**
 * A search pattern of `grep_files` is not a valid expression for its linear-time engine (RE2
 * syntax: no backreferences, no lookaround). Never retryable as is.
 */
export class InvalidSearchPatternError extends AgentLoomError {
  readonly pattern: string;
  readonly retryable = false;

  constructor(pattern: string, detail: string) {
    super(
      'invalid-search-pattern',
      `invalid regular expression ${JSON.stringify(pattern)}: ${detail} (RE2 syntax: no backreferences or lookaround)`,
    );
    this.pattern = pattern;
  }

  static override isInstance(error: unknown): error is InvalidSearchPatternError {
    return hasErrorCode(error, 'invalid-search-pattern');
  }
}

/** The sandbox cannot run here (bubblewrap missing, user namespaces refused, no `/proc`). */
export class SandboxUnavailableError extends AgentLoomError {
  readonly retryable = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super('sandbox-unavailable', message, options);
  }

  static override isInstance(error: unknown): error is SandboxUnavailableError {
    return hasErrorCode(error, 'sandbox-unavailable');
  }
}

/**
 * A temporary run directory was asked to be removed while its run has not settled (S-5, F-5):
 * the run is still running (perhaps on another machine after a crash) or unknown to the store.
 */
export class RunNotSettledError extends AgentLoomError {
  readonly runId: string;
  /** The run's status in the store, or `missing`. */
  readonly status: string;

  constructor(runId: string, status: string) {
    super('run-not-settled', `Run ${runId} has not settled (status: ${status}); its work directory is kept.`);
    this.runId = runId;
    this.status = status;
  }

  static override isInstance(error: unknown): error is RunNotSettledError {
    return hasErrorCode(error, 'run-not-settled');
  }
}

/**
 * A write or edit of an existing file the run has not read, or that changed on disk since the run
 * read it (N-15, write only what was read): the model should read the file (again) and redo its
 * change on what is there now. Never retried: the same call would be refused again.
 */
export class FileNotReadError extends AgentLoomError {
  readonly path: string;
  /** `not-read`: never read in this run; `changed`: read, then changed by someone else. */
  readonly reason: 'not-read' | 'changed';
  readonly retryable = false;

  constructor(path: string, reason: 'not-read' | 'changed') {
    super(
      'file-not-read',
      reason === 'not-read'
        ? `"${path}" exists and was not read in this run; read it with read_file before changing it`
        : `"${path}" changed on disk since this run read it; read it again before changing it`,
    );
    this.path = path;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is FileNotReadError {
    return hasErrorCode(error, 'file-not-read');
  }
}
