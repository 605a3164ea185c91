import type { RunListQuery } from '../run-store.js';
import { RUN_COLUMNS } from './sqlite-statements.js';

/**
 * The SQL and values of a `listRuns` query: tombstones excluded, each filter a condition, newest
 * first from the `before` cursor. The text depends only on which filters are set (and on the
 * metadata keys), so the store keeps one prepared statement per text.
 */
export function runListQuery(query: RunListQuery): { sql: string; values: Array<string | number> } {
  const conditions = ["run.status <> 'deleted'"];
  const values: Array<string | number> = [];
  if (query.sessionId !== undefined) {
    conditions.push('run.session_id = ?');
    values.push(query.sessionId);
  }
  if (query.kind !== undefined) {
    conditions.push('run.kind = ?');
    values.push(query.kind);
  }
  if (query.status !== undefined) {
    conditions.push('run.status = ?');
    values.push(query.status);
  }
  for (const [key, value] of Object.entries(query.metadata ?? {})) {
    // A plain key is read by path (fast); any other key is matched through json_each (exact).
    if (/^[A-Za-z0-9_-]{1,128}$/.test(key)) {
      conditions.push('json_extract(run.metadata, ?) = ?');
      values.push(`$."${key}"`, value);
    } else {
      conditions.push('EXISTS (SELECT 1 FROM json_each(run.metadata) WHERE json_each.key = ? AND json_each.value = ?)');
      values.push(key, value);
    }
  }
  if (query.before) {
    // A row value, so that the (created_at, run_id) index seeks straight to the position.
    conditions.push('(run.created_at, run.run_id) < (?, ?)');
    values.push(query.before.createdAt, query.before.runId);
  }
  const sql = `SELECT ${RUN_COLUMNS} FROM agentloom_runs AS run WHERE ${conditions.join(' AND ')}
      ORDER BY run.created_at DESC, run.run_id DESC LIMIT ?`;
  return { sql, values };
}
