import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * Where a workspace keeps things under the agent file root (F-1, F-3, F-4):
 *
 * ```
 * <root>/sessions/<session>/work     persistent session work directories (sandbox persistent on)
 * <root>/runs/<run>/work             temporary run work directories (persistent off)
 * <root>/runs/<run>/run.json         which run a temporary directory belongs to (for stale cleanup)
 * <root>/system/…                    system records: file checkpoints, MCP task ledger, a run store
 * ```
 *
 * Only `work` directories (and read-only skills and mounts) are ever part of a view, so nothing
 * under `system/`, nor another session's or run's directory, can be named by a model path.
 */
export const layout = {
  sessions: 'sessions',
  runs: 'runs',
  work: 'work',
  runMarker: 'run.json',
  system: 'system',
  checkpoints: 'checkpoints',
  reads: 'reads',
} as const;

const plainSegment = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/;

/**
 * Turns a session or run id into one safe directory name. Ids that are already safe stay readable;
 * others are base64url-encoded behind `~` (a character plain names never contain), and very long
 * ones are hashed behind `=`. Ids come from the trusted context, but they are encoded anyway so that
 * no id can contain `/` or be `..`.
 */
export function encodeIdentifier(id: string): string {
  if (plainSegment.test(id)) return id;
  const encoded = Buffer.from(id, 'utf8').toString('base64url');
  if (encoded.length <= 150) return `~${encoded}`;
  return `=${createHash('sha256').update(id).digest('hex')}`;
}

/** The path segments of a scope's work directory below the root. */
export function workSegments(persistent: boolean, scope: { sessionId: string; runId: string }): string[] {
  return persistent
    ? [layout.sessions, encodeIdentifier(scope.sessionId), layout.work]
    : [layout.runs, encodeIdentifier(scope.runId), layout.work];
}

/** The host directory holding a temporary run's files (its work directory and marker). */
export function runDirectory(root: string, runId: string): string {
  return join(root, layout.runs, encodeIdentifier(runId));
}

/** The system directory where a scope's file checkpoints are kept (outside every view, F-3). */
export function checkpointDirectory(root: string, persistent: boolean, scope: { sessionId: string; runId: string }): string {
  return persistent
    ? join(root, layout.system, layout.checkpoints, layout.sessions, encodeIdentifier(scope.sessionId))
    : join(root, layout.system, layout.checkpoints, layout.runs, encodeIdentifier(scope.runId));
}

/** The system directory where a run's file-read ledger is kept (N-15; outside every view, F-3). */
export function readLedgerDirectory(root: string, runId: string): string {
  return join(root, layout.system, layout.reads, encodeIdentifier(runId));
}
