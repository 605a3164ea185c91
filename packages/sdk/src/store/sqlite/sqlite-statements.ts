import type Database from 'better-sqlite3';
import type { JournalRow, RunRow, SessionReadParameters, SessionReadRow, SessionRow } from './sqlite-rows.js';

type Statement<Parameters extends unknown[] = unknown[], Row = unknown> = Database.Statement<Parameters, Row>;

/** The prepared statements of `SqliteRunStore`, prepared once per open database. */
export interface SqliteStatements {
  getRun: Statement<[string], RunRow>;
  insertRun: Statement;
  /** `insertRun` that leaves an existing row alone: `changes` 0 says the run was there (one statement, no read first). */
  insertRunIfAbsent: Statement;
  takeOver: Statement;
  insertEntry: Statement;
  fence: Statement<[string], { epoch: number; status: string; last_sequence: number }>;
  advance: Statement;
  finish: Statement;
  renew: Statement<[number, number, string, number], { last_sequence: number }>;
  tombstone: Statement;
  deleteJournal: Statement;
  sessions: LimitedStatement<[number, number, string], SessionRow>;
  release: Statement;
  journal: LimitedStatement<[string, number], JournalRow>;
  readSession: LimitedStatement<[SessionReadParameters], SessionReadRow>;
  sessionRuns: Statement<[string], RunRow>;
  setCheckpoint: Statement;
}

/**
 * The newest journal entry's `column` of the run row named `row` (`run` unless told): one seek
 * of the journal's primary key from its end, never a scan.
 */
const lastEntry = (column: 'sequence' | 'at', row = 'run') =>
  `(SELECT entry.${column} FROM agentloom_journal AS entry WHERE entry.run_id = ${row}.run_id ORDER BY entry.sequence DESC LIMIT 1)`;

/**
 * The columns of a run row (aliased `run`) as the port reads them. An owner's plain append (no
 * loop charged, not terminal) writes its entries only and leaves the run row alone (issue 34: a
 * second page per commit doubled the cost of every write), so for a run that has not finished
 * the last sequence and the time of the last write are taken from the journal's newest entry
 * when it is newer than the row. A finished or deleted run's row is exact: its terminal append
 * wrote both.
 */
export const RUN_COLUMNS = `run.run_id, run.session_id, run.status, run.owner_id, run.epoch, run.lease_expires_at,
  run.deadline_at, run.loops_used, run.created_at, run.result, run.kind, run.name, run.metadata, run.digest,
  run.checkpoint_through, run.checkpoint_at,
  CASE WHEN run.status IN ('pending', 'running') THEN MAX(run.last_sequence, COALESCE(${lastEntry('sequence')}, 0))
    ELSE run.last_sequence END AS last_sequence,
  CASE WHEN run.status IN ('pending', 'running') THEN MAX(run.updated_at, COALESCE(${lastEntry('at')}, 0))
    ELSE run.updated_at END AS updated_at`;

/**
 * A statement whose LIMIT is written into its SQL, prepared once per limit value. A bound LIMIT
 * costs a full re-prepare on every execution with the SQLite that better-sqlite3 builds (STAT4:
 * the planner reads the bound value, so each new binding expires the plan): 370 µs instead of
 * 10 µs for the session read, twice the time of a journal read (issue 34). Limits come from few
 * call sites with few values; past `LIMIT_VALUES` distinct ones the bound form is used.
 */
export interface LimitedStatement<Parameters extends unknown[], Row> {
  readonly source: string;
  all(limit: number, ...parameters: Parameters): Row[];
}

/** How many distinct limit values a statement keeps prepared (the rest use the bound form). */
const LIMIT_VALUES = 16;

/** `sql` with `@limit` where its LIMIT goes; a negative `limit` means no limit (SQLite's -1), 0 reads nothing. */
export function limitedStatement<Parameters extends unknown[], Row>(
  database: Database.Database,
  sql: string,
): LimitedStatement<Parameters, Row> {
  const prepared = new Map<number, Statement<unknown[], Row>>();
  let bound: Statement<unknown[], Row> | undefined;
  return {
    source: sql,
    all(limit, ...parameters) {
      const value = Number.isSafeInteger(limit) ? Math.max(limit, -1) : -1;
      let statement = prepared.get(value);
      if (!statement) {
        if (prepared.size < LIMIT_VALUES) {
          statement = database.prepare<unknown[], Row>(sql.replaceAll('@limit', String(value)));
          prepared.set(value, statement);
        } else {
          bound ??= database.prepare<unknown[], Row>(sql.replaceAll('@limit', '@boundLimit'));
          const [first, ...rest] = parameters;
          // The bound form takes the limit by name: named parameters ride in the first object,
          // positional ones get an object of their own.
          return typeof first === 'object' && first !== null
            ? bound.all({ ...(first as object), boundLimit: value }, ...rest)
            : bound.all(...parameters, { boundLimit: value });
        }
      }
      return statement.all(...parameters);
    },
  };
}

/** A new run's row (`metadata` as JSON text). */
const INSERT_RUN = `INSERT INTO agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at,
     loops_used, last_sequence, created_at, updated_at, result, kind, name, metadata)
   VALUES (@runId, @sessionId, @status, @ownerId, @epoch, @leaseExpiresAt, @deadlineAt,
     @loopsUsed, @lastSequence, @createdAt, @updatedAt, NULL, @kind, @name, @metadataText)`;

/** Prepares every fixed statement of the store (listing statements vary with filters and are prepared on use). */
export function prepareStatements(database: Database.Database): SqliteStatements {
  return {
    getRun: database.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM agentloom_runs AS run WHERE run.run_id = ?`),
    insertRun: database.prepare(INSERT_RUN),
    insertRunIfAbsent: database.prepare(`${INSERT_RUN} ON CONFLICT (run_id) DO NOTHING`),
    takeOver: database.prepare(
      `UPDATE agentloom_runs SET status = 'running', owner_id = ?, epoch = ?, lease_expires_at = ?, updated_at = ? WHERE run_id = ?`,
    ),
    insertEntry: database.prepare(
      `INSERT INTO agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    // The last sequence from the journal's end (the row's may lag behind an owner's plain appends).
    fence: database.prepare<[string], { epoch: number; status: string; last_sequence: number }>(
      `SELECT run.epoch, run.status, MAX(run.last_sequence, COALESCE(${lastEntry('sequence')}, 0)) AS last_sequence
       FROM agentloom_runs AS run WHERE run.run_id = ?`,
    ),
    advance: database.prepare(
      'UPDATE agentloom_runs SET last_sequence = ?, loops_used = loops_used + ?, updated_at = ? WHERE run_id = ?',
    ),
    finish: database.prepare(
      `UPDATE agentloom_runs SET last_sequence = ?, loops_used = loops_used + ?, status = ?, result = ?, digest = ?,
         owner_id = NULL, lease_expires_at = 0, updated_at = ? WHERE run_id = ?`,
    ),
    renew: database.prepare<[number, number, string, number], { last_sequence: number }>(
      `UPDATE agentloom_runs SET lease_expires_at = ?, updated_at = ? WHERE run_id = ? AND epoch = ? AND status = 'running'
       RETURNING MAX(last_sequence, COALESCE(${lastEntry('sequence', 'agentloom_runs')}, 0)) AS last_sequence`,
    ),
    tombstone: database.prepare(
      `UPDATE agentloom_runs SET status = 'deleted', result = NULL, digest = NULL, checkpoint_through = NULL, checkpoint_at = NULL, owner_id = NULL, lease_expires_at = 0, updated_at = ? WHERE run_id = ?`,
    ),
    deleteJournal: database.prepare('DELETE FROM agentloom_journal WHERE run_id = ?'),
    sessions: limitedStatement<[number, number, string], SessionRow>(
      database,
      `SELECT session_id, runs, first_run_at, last_run_at FROM agentloom_sessions
       WHERE ? = 0 OR (last_run_at, session_id) < (?, ?)
       ORDER BY last_run_at DESC, session_id DESC LIMIT @limit`,
    ),
    release: database.prepare(
      `UPDATE agentloom_runs SET owner_id = NULL, lease_expires_at = 0 WHERE run_id = ? AND epoch = ? AND status = 'running'`,
    ),
    journal: limitedStatement<[string, number], JournalRow>(
      database,
      'SELECT sequence, epoch, type, task_id, data, at FROM agentloom_journal WHERE run_id = ? AND sequence > ? ORDER BY sequence LIMIT @limit',
    ),
    // One statement for a whole session (issue 18): the runs in order, the journal joined only
    // for the runs whose journal is wanted — read first by primary key (`wanted`, materialised),
    // so that no other run's entries are visited. The last sequence is the stored column, never a
    // MAX(sequence) per run over the WITHOUT ROWID journal.
    readSession: limitedStatement<[SessionReadParameters], SessionReadRow>(
      database,
      // With a checkpoint (ADR 0012) only the runs after the run it covers through are read: the
      // newest checkpoint is found from the end of the partial checkpoint index, the runs after it
      // (and the recent finished ones among them) by a range of the session indexes.
      // The holder is found before the join: the newest from the end of that index (LIMIT 1), a
      // named one (a resumed run's) by its primary key, never by walking the session's holders.
      `WITH checkpoint AS MATERIALIZED (
         SELECT holder.run_id AS holder, through.created_at AS at, through.rowid AS position
         FROM (
           SELECT * FROM (
             SELECT run_id, checkpoint_through FROM agentloom_runs
             WHERE @checkpoint = '' AND session_id = @session AND checkpoint_at IS NOT NULL AND status <> 'deleted'
             ORDER BY checkpoint_at DESC, rowid DESC LIMIT 1)
           UNION ALL
           SELECT run_id, checkpoint_through FROM agentloom_runs
           WHERE @checkpoint <> '' AND run_id = @checkpoint AND session_id = @session AND checkpoint_at IS NOT NULL
             AND status <> 'deleted'
         ) AS holder JOIN agentloom_runs AS through ON through.run_id = holder.checkpoint_through
       ), session AS (
         SELECT rowid AS position, * FROM agentloom_runs
         WHERE session_id = @session AND status <> 'deleted' AND (@kind IS NULL OR kind = @kind) AND (@except IS NULL OR run_id <> @except)
           AND created_at >= COALESCE((SELECT at FROM checkpoint), -1)
           AND (created_at, rowid) > (COALESCE((SELECT at FROM checkpoint), -1), COALESCE((SELECT position FROM checkpoint), -1))
       ), chosen AS (
         SELECT run_id FROM (
           SELECT run_id FROM agentloom_runs
           WHERE session_id = @session AND status NOT IN ('pending', 'running', 'deleted')
             AND (@kind IS NULL OR kind = @kind) AND (@except IS NULL OR run_id <> @except)
             AND created_at >= COALESCE((SELECT at FROM checkpoint), -1)
             AND (created_at, rowid) > (COALESCE((SELECT at FROM checkpoint), -1), COALESCE((SELECT position FROM checkpoint), -1))
           ORDER BY created_at DESC, rowid DESC LIMIT @limit)
         UNION SELECT value FROM json_each(@runs)
         UNION SELECT run_id FROM session WHERE digest IS NULL
       ), wanted AS MATERIALIZED (
         SELECT entry.* FROM chosen JOIN agentloom_journal AS entry ON entry.run_id = chosen.run_id
       )
       SELECT run.*, run.run_id = (SELECT holder FROM checkpoint) AS holds_checkpoint, entry.sequence AS entry_sequence, entry.epoch AS entry_epoch, entry.type AS entry_type,
         entry.task_id AS entry_task_id, entry.data AS entry_data, entry.at AS entry_at
       FROM session AS run
       LEFT JOIN wanted AS entry ON entry.run_id = run.run_id
       ORDER BY run.created_at, run.position, entry.sequence`,
    ),
    setCheckpoint: database.prepare('UPDATE agentloom_runs SET checkpoint_through = ?, checkpoint_at = ? WHERE run_id = ?'),
    sessionRuns: database.prepare<[string], RunRow>(
      `SELECT ${RUN_COLUMNS} FROM agentloom_runs AS run WHERE run.session_id = ? AND run.status <> 'deleted'
       ORDER BY run.created_at, run.rowid`,
    ),
  };
}
