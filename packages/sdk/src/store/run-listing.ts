import type { RunListQuery, RunRecord, SessionListQuery, SessionRecord } from './run-store.js';

/**
 * The listing rules of `listRuns` and `listSessions` written once in code, for the adapter that
 * filters in memory; the SQL adapters state the same rules in SQL and the contract suite holds
 * all of them to the same answers.
 */

/** Newest first; equal times by run id, descending, so that pages never overlap. */
export function compareNewestFirst(a: RunRecord, b: RunRecord): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0;
}

/** Whether a run belongs in the answer to `query` (tombstones never do). */
export function matchesRunQuery(record: RunRecord, query: RunListQuery): boolean {
  if (record.status === 'deleted') return false;
  if (query.sessionId !== undefined && record.sessionId !== query.sessionId) return false;
  if (query.kind !== undefined && record.kind !== query.kind) return false;
  if (query.status !== undefined && record.status !== query.status) return false;
  for (const [key, value] of Object.entries(query.metadata ?? {})) {
    if (record.metadata[key] !== value) return false;
  }
  const before = query.before;
  if (
    before &&
    !(record.createdAt < before.createdAt || (record.createdAt === before.createdAt && record.runId < before.runId))
  ) {
    return false;
  }
  return true;
}

/** Groups runs into sessions, most recently active first, one page. */
export function summariseSessions(records: readonly RunRecord[], query: SessionListQuery): SessionRecord[] {
  const sessions = new Map<string, SessionRecord>();
  for (const record of records) {
    if (record.status === 'deleted') continue;
    const session = sessions.get(record.sessionId);
    if (!session) {
      sessions.set(record.sessionId, {
        sessionId: record.sessionId,
        runs: 1,
        firstRunAt: record.createdAt,
        lastRunAt: record.createdAt,
      });
      continue;
    }
    session.runs += 1;
    session.firstRunAt = Math.min(session.firstRunAt, record.createdAt);
    session.lastRunAt = Math.max(session.lastRunAt, record.createdAt);
  }
  const before = query.before;
  return [...sessions.values()]
    .filter(
      (session) =>
        !before ||
        session.lastRunAt < before.lastRunAt ||
        (session.lastRunAt === before.lastRunAt && session.sessionId < before.sessionId),
    )
    .sort((a, b) => b.lastRunAt - a.lastRunAt || (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0))
    .slice(0, query.limit);
}
