import { AgentLoomError, StoreFailureError } from '../../core/errors/index.js';

/**
 * Result codes after which the same call may succeed: another process holds the lock, or a disk
 * write or a full disk failed for now. Anything else (corrupt file, not a database, read-only)
 * will fail again and is reported as permanent.
 */
const TRANSIENT_CODES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL'];

/** The SQLite result code of a driver error (`SQLITE_BUSY_SNAPSHOT`, …), if it has one. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** Whether a driver error means another connection holds the lock we need. */
export function isSqliteBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Turns what a SQLite call threw into what the store reports: AgentLoom errors (fencing, a
 * finished run) pass through; driver errors become `StoreFailureError`, `transient` for the codes
 * above (extended codes such as `SQLITE_IOERR_WRITE` included), never a raw `SqliteError`.
 */
export function toSqliteStoreError(operation: string, error: unknown): Error {
  if (AgentLoomError.isInstance(error)) return error;
  const code = sqliteCode(error);
  const transient = code !== undefined && TRANSIENT_CODES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));
  const message = error instanceof Error ? error.message : String(error);
  return new StoreFailureError(`SqliteRunStore.${operation} failed${code ? ` (${code})` : ''}: ${message}`, {
    cause: error,
    transient,
  });
}
