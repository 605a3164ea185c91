import type { RunListQuery } from '../run-store.js';

/**
 * The database clock in epoch milliseconds. Every lease is measured on it, never on a process
 * clock, so that machines whose clocks disagree still agree on when a lease ends.
 */
export const DATABASE_CLOCK = 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

const RUN_COLUMNS =
  'run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used, last_sequence, created_at, updated_at, result, kind, name, metadata';
/** A journal entry aliased `entry`, named as `RunAndEntryRow` reads it beside a run's columns. */
const ENTRY_COLUMNS =
  'entry.sequence AS entry_sequence, entry.epoch AS entry_epoch, entry.type AS entry_type, entry.task_id AS entry_task_id, entry.data AS entry_data, entry.at AS entry_at';
/** The same columns of the runs table aliased `run` (in a statement that joins or updates from another). */
const RUN_COLUMNS_OF_RUN = RUN_COLUMNS.split(', ')
  .map((column) => `run.${column}`)
  .join(', ');

/** The SQL of `PostgresRunStore`, with table names qualified by the store's schema. */
export interface PostgresStatements {
  /** Locks the run's row (if any) for the rest of the acquire transaction and reads the clock after the lock. */
  lockRun: string;
  readClock: string;
  /** Inserts a new run with its initial entries; answers no row when another creator won. */
  createRun: string;
  takeOver: string;
  /**
   * Takes over an unfinished run of the session whose lease is free, in one statement (no
   * transaction): the `acquired` rule of `decideAcquire` as a conditional UPDATE, which READ
   * COMMITTED re-checks on the newest row version after waiting for a concurrent taker. Answers
   * no row for every other case, which the locking transaction then decides.
   */
  takeOverFree: string;
  /** `takeOverFree` answering the run's journal too (`RunAndEntryRow`s): what its new owner reads next. */
  takeOverFreeWithJournal: string;
  /** The fenced append: one statement, so no transaction stays open between round trips. */
  append: string;
  /** An unfenced append (epoch 0) while the run is active: a supplement from any machine. */
  appendExternal: string;
  /** Reads why an append was refused, to word the error. */
  fenceState: string;
  /** Wakes the followers of deleted runs ($1: their ids), in the deleting transaction (ADR 0025). */
  notifyRuns: string;
  renew: string;
  release: string;
  getRun: string;
  readJournal: string;
  /** `getRun` with `readJournal` in one snapshot: a row per entry (run columns repeated), or one row without an entry. */
  readRunAndJournal: string;
  sessionRuns: string;
  /** A whole session in one statement: runs in order, journals joined only where wanted (issue 18). */
  readSession: string;
  checkpointThrough: string;
  /**
   * Records a pending run with its first entries unless the id exists; answers the run's row
   * either way (`created` says which), or no row when a concurrent creator's row is not yet
   * visible to this statement's snapshot.
   */
  createPending: string;
  /** Locks the rows of the runs to delete. */
  lockRuns: string;
  deleteJournals: string;
  tombstone: string;
  /** The first part of a `listRuns` query; the adapter adds the filters it was given. */
  listRunsSelect: string;
  listSessions: string;
}

/** Builds the statements for a schema name that is already quoted as an identifier. */
export function postgresStatements(quotedSchema: string, channel: string): PostgresStatements {
  const runs = `${quotedSchema}.agentloom_runs`;
  const journal = `${quotedSchema}.agentloom_journal`;
  const entries = 'unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS entry(type, task_id, data, position)';
  const clock = `clock AS (SELECT ${DATABASE_CLOCK} AS now)`;
  // $1 run id, $2 owner, $3 lease ms, $4 session.
  const takeFree = `UPDATE ${runs} AS run SET status = 'running', owner_id = $2, epoch = run.epoch + 1,
        lease_expires_at = clock.now + $3::bigint, updated_at = clock.now
      FROM clock
      WHERE run.run_id = $1 AND run.session_id = $4 AND run.status IN ('pending', 'running')
        AND (run.owner_id IS NULL OR run.lease_expires_at <= clock.now)
      RETURNING ${RUN_COLUMNS_OF_RUN}`;
  return {
    // The clock is read above the lock, so after any wait for it (the subquery's rows come locked).
    lockRun: `SELECT locked.*, ${DATABASE_CLOCK} AS now FROM (SELECT ${RUN_COLUMNS} FROM ${runs} WHERE run_id = $1 FOR UPDATE) AS locked`,
    readClock: `SELECT ${DATABASE_CLOCK} AS now`,
    // $1 run id, $2 epoch, $3..$5 entries, $6 session, $7 status, $8 owner, $9 lease, $10 deadline,
    // $11 loops, $12 last sequence, $13 now, $14 kind, $15 name, $16 metadata.
    createRun: `WITH created AS (
        INSERT INTO ${runs} (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used,
          last_sequence, created_at, updated_at, kind, name, metadata)
        VALUES ($1, $6, $7, $8, $2, $9, $10, $11, $12, $13, $13, $14, $15, $16)
        ON CONFLICT (run_id) DO NOTHING
        RETURNING run_id
      ), written AS (
        INSERT INTO ${journal} (run_id, sequence, epoch, type, task_id, data, at)
        SELECT created.run_id, entry.position, $2, entry.type, entry.task_id, entry.data, $13
        FROM created, ${entries}
      )
      SELECT run_id FROM created`,
    takeOverFree: `WITH ${clock} ${takeFree}`,
    takeOverFreeWithJournal: `WITH ${clock}, taken AS (${takeFree})
      SELECT taken.*, ${ENTRY_COLUMNS} FROM taken LEFT JOIN LATERAL (SELECT sequence, epoch, type, task_id, data, at
        FROM ${journal} WHERE run_id = taken.run_id ORDER BY sequence) AS entry ON true ORDER BY entry.sequence`,
    takeOver: `UPDATE ${runs} SET status = 'running', owner_id = $2, epoch = $3, lease_expires_at = $4, updated_at = $5 WHERE run_id = $1`,
    // $1 run id, $2 epoch, $3..$5 entries, $6 entry count, $7 loops charged, $8 terminal status, $9 result,
    // $10 digest (with a terminal only), $11/$12 the run a checkpoint covers through and its creation time (ADR 0012),
    // $13 the last sequence the journal must still end at, or NULL (ADR 0025). The conditional UPDATE is the fence: it takes the row lock, and after waiting for a concurrent
    // takeover, READ COMMITTED re-checks the epoch on the newest row version. The journal INSERT
    // consumes its RETURNING, so a refused write inserts nothing.
    append: `WITH clock AS (SELECT ${DATABASE_CLOCK} AS now),
      fenced AS (
        UPDATE ${runs} AS run SET
          last_sequence = run.last_sequence + $6::integer,
          loops_used = run.loops_used + $7::integer,
          updated_at = clock.now,
          status = COALESCE($8::text, run.status),
          result = COALESCE($9::text, run.result),
          digest = COALESCE($10::text, run.digest),
          checkpoint_through = COALESCE($11::text, run.checkpoint_through),
          checkpoint_at = COALESCE($12::bigint, run.checkpoint_at),
          owner_id = CASE WHEN $8::text IS NULL THEN run.owner_id END,
          lease_expires_at = CASE WHEN $8::text IS NULL THEN run.lease_expires_at ELSE 0 END
        FROM clock
        WHERE run.run_id = $1 AND run.epoch = $2 AND run.status = 'running'
          AND ($13::integer IS NULL OR run.last_sequence = $13::integer)
        RETURNING run.last_sequence, clock.now
      ), written AS (
        INSERT INTO ${journal} (run_id, sequence, epoch, type, task_id, data, at)
        SELECT $1, fenced.last_sequence - $6::integer + entry.position, $2, entry.type, entry.task_id, entry.data, fenced.now
        FROM fenced, ${entries}
      )
      SELECT last_sequence, pg_notify('${channel}', last_sequence::text || ':' || $1) FROM fenced`,
    // $1 run id, $2 epoch (0), $3..$5 entries, $6 entry count. The UPDATE takes the row lock that
    // allocates sequence numbers, so owner and external entries never collide.
    appendExternal: `WITH active AS (
        UPDATE ${runs} SET last_sequence = last_sequence + $6::integer
        WHERE run_id = $1 AND status IN ('pending', 'running')
        RETURNING last_sequence, ${DATABASE_CLOCK} AS now
      ), written AS (
        INSERT INTO ${journal} (run_id, sequence, epoch, type, task_id, data, at)
        SELECT $1, active.last_sequence - $6::integer + entry.position, $2, entry.type, entry.task_id, entry.data, active.now
        FROM active, ${entries}
      )
      SELECT last_sequence, pg_notify('${channel}', last_sequence::text || ':' || $1) FROM active`,
    // $1 the finishing run, $2 the run its checkpoint covers through (ADR 0012).
    checkpointThrough: `SELECT through.created_at FROM ${runs} AS holder JOIN ${runs} AS through
      ON through.run_id = $2 AND through.session_id = holder.session_id AND through.created_at < holder.created_at
      WHERE holder.run_id = $1`,
    fenceState: `SELECT epoch, status, last_sequence FROM ${runs} WHERE run_id = $1`,
    notifyRuns: `SELECT pg_notify('${channel}', ':' || run_id) FROM unnest($1::text[]) AS run_id`,
    renew: `UPDATE ${runs} AS run SET lease_expires_at = clock.now + $3::bigint, updated_at = clock.now
      FROM (SELECT ${DATABASE_CLOCK} AS now) AS clock
      WHERE run.run_id = $1 AND run.epoch = $2 AND run.status = 'running'
      RETURNING run.lease_expires_at, run.last_sequence`,
    release: `UPDATE ${runs} SET owner_id = NULL, lease_expires_at = 0 WHERE run_id = $1 AND epoch = $2 AND status = 'running'`,
    getRun: `SELECT ${RUN_COLUMNS} FROM ${runs} WHERE run_id = $1`,
    readJournal: `SELECT sequence, epoch, type, task_id, data, at FROM ${journal}
      WHERE run_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3::integer`,
    readRunAndJournal: `SELECT ${RUN_COLUMNS_OF_RUN}, ${ENTRY_COLUMNS}
      FROM ${runs} AS run LEFT JOIN LATERAL (SELECT sequence, epoch, type, task_id, data, at FROM ${journal}
        WHERE run_id = run.run_id AND sequence > $2 ORDER BY sequence LIMIT $3::integer) AS entry ON true
      WHERE run.run_id = $1 ORDER BY entry.sequence`,
    sessionRuns: `SELECT ${RUN_COLUMNS} FROM ${runs} WHERE session_id = $1 AND status <> 'deleted' ORDER BY created_at, created_order`,
    // $1 session, $2 kind or null, $3 run left out or null, $4 recent finished runs, $5 run ids,
    // $6 checkpoint ('' the newest, a holder's run id, null none: ADR 0012).
    // The last sequence is the stored column; the journal is joined only for the chosen runs.
    // With a checkpoint only the runs after the run it covers through are read.
    // The holder is found first — the newest from the end of the checkpoint index (LIMIT 1), a
    // named one by its primary key — and only then joined to the run it covers through, so that
    // no plan (the statement is prepared, issue 34) visits every holder of the session.
    readSession: `WITH checkpoint AS (
        SELECT holder.run_id AS holder, through.created_at AS at, through.created_order AS position
        FROM (
          (SELECT run_id, checkpoint_through FROM ${runs}
            WHERE $6::text = '' AND session_id = $1 AND checkpoint_at IS NOT NULL AND status <> 'deleted'
            ORDER BY checkpoint_at DESC, created_order DESC LIMIT 1)
          UNION ALL
          SELECT run_id, checkpoint_through FROM ${runs}
          WHERE $6::text <> '' AND run_id = $6::text AND session_id = $1 AND checkpoint_at IS NOT NULL AND status <> 'deleted'
        ) AS holder JOIN ${runs} AS through ON through.run_id = holder.checkpoint_through
      ), session AS (
        SELECT ${RUN_COLUMNS}, digest, created_order FROM ${runs}
        WHERE session_id = $1 AND status <> 'deleted' AND ($2::text IS NULL OR kind = $2::text)
          AND ($3::text IS NULL OR run_id <> $3::text)
          AND (created_at, created_order) > (COALESCE((SELECT at FROM checkpoint), -1), COALESCE((SELECT position FROM checkpoint), -1))
      ), chosen AS (
        (SELECT run_id FROM ${runs}
          WHERE session_id = $1 AND status NOT IN ('pending', 'running', 'deleted')
            AND ($2::text IS NULL OR kind = $2::text) AND ($3::text IS NULL OR run_id <> $3::text)
            AND (created_at, created_order) > (COALESCE((SELECT at FROM checkpoint), -1), COALESCE((SELECT position FROM checkpoint), -1))
          ORDER BY created_at DESC, created_order DESC LIMIT $4::integer)
        UNION SELECT unnest($5::text[])
        UNION SELECT run_id FROM session WHERE digest IS NULL
      ), wanted AS MATERIALIZED (
        -- One primary-key range per chosen run, whatever the plan's estimates: the statement is
        -- prepared (issue 34), and a generic plan joined the chosen runs to a scan of the whole
        -- journal. OFFSET 0 keeps the lateral subquery from being flattened into that join.
        SELECT entry.* FROM chosen CROSS JOIN LATERAL (
          SELECT * FROM ${journal} AS one WHERE one.run_id = chosen.run_id OFFSET 0
        ) AS entry
      )
      SELECT run.*, run.run_id = (SELECT holder FROM checkpoint) AS holds_checkpoint, entry.sequence AS entry_sequence, entry.epoch AS entry_epoch, entry.type AS entry_type,
        entry.task_id AS entry_task_id, entry.data AS entry_data, entry.at AS entry_at
      FROM session AS run
      LEFT JOIN wanted AS entry ON entry.run_id = run.run_id
      ORDER BY run.created_at, run.created_order, entry.sequence`,
    // $1 run id, $2 epoch (1), $3..$5 entries, $6 session, $7 entry count, $8 kind, $9 name, $10 metadata.
    createPending: `WITH clock AS (SELECT ${DATABASE_CLOCK} AS now),
      created AS (
        INSERT INTO ${runs} (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used,
          last_sequence, created_at, updated_at, kind, name, metadata)
        SELECT $1, $6, 'pending', NULL, $2, 0, 0, 0, $7::integer, clock.now, clock.now, $8, $9, $10 FROM clock
        ON CONFLICT (run_id) DO NOTHING
        RETURNING ${RUN_COLUMNS}
      ), written AS (
        INSERT INTO ${journal} (run_id, sequence, epoch, type, task_id, data, at)
        SELECT created.run_id, entry.position, $2, entry.type, entry.task_id, entry.data, created.created_at
        FROM created, ${entries}
      )
      SELECT true AS created, ${RUN_COLUMNS} FROM created
      UNION ALL
      SELECT false AS created, ${RUN_COLUMNS} FROM ${runs} WHERE run_id = $1 AND NOT EXISTS (SELECT 1 FROM created)`,
    lockRuns: `SELECT run_id, status FROM ${runs} WHERE run_id = ANY($1::text[]) AND status <> 'deleted' ORDER BY run_id FOR UPDATE`,
    deleteJournals: `DELETE FROM ${journal} WHERE run_id = ANY($1::text[])`,
    tombstone: `UPDATE ${runs} SET status = 'deleted', result = NULL, digest = NULL, checkpoint_through = NULL, checkpoint_at = NULL, owner_id = NULL, lease_expires_at = 0,
      updated_at = ${DATABASE_CLOCK} WHERE run_id = ANY($1::text[])`,
    listRunsSelect: `SELECT ${RUN_COLUMNS} FROM ${runs} WHERE status <> 'deleted'`,
    // $1 has-cursor, $2 cursor time, $3 cursor session, $4 limit.
    listSessions: `SELECT session_id, runs, first_run_at, last_run_at FROM ${quotedSchema}.agentloom_sessions
      WHERE NOT $1::boolean OR (last_run_at, session_id) < ($2::bigint, $3::text)
      ORDER BY last_run_at DESC, session_id DESC LIMIT $4`,
  };
}

/**
 * A `listRuns` query: the select, the filters it was given as parameters, and the page. The page
 * size is written into the text (an integer by construction): with a parameter the planner cannot
 * see how few rows are wanted and may sort the whole table instead of walking the
 * (created_at, run_id) index.
 */
export function listRunsQuery(select: string, query: RunListQuery): { sql: string; values: unknown[] } {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const add = (condition: (placeholder: () => string) => string) => conditions.push(condition(() => `$${values.length}`));
  if (query.sessionId !== undefined) {
    values.push(query.sessionId);
    add((at) => `session_id = ${at()}`);
  }
  if (query.kind !== undefined) {
    values.push(query.kind);
    add((at) => `kind = ${at()}`);
  }
  if (query.status !== undefined) {
    values.push(query.status);
    add((at) => `status = ${at()}`);
  }
  if (query.metadata && Object.keys(query.metadata).length > 0) {
    values.push(JSON.stringify(query.metadata));
    add((at) => `metadata::jsonb @> ${at()}::jsonb`);
  }
  if (query.before) {
    values.push(query.before.createdAt);
    const time = `$${values.length}`;
    values.push(query.before.runId);
    // A row comparison, so that the (created_at, run_id) index seeks straight to the position.
    add((at) => `(created_at, run_id) < (${time}::bigint, ${at()}::text)`);
  }
  const limit = Math.max(1, Math.min(10_000, Math.floor(Number(query.limit)) || 1));
  const filter = conditions.map((condition) => ` AND ${condition}`).join('');
  return { sql: `${select}${filter} ORDER BY created_at DESC, run_id DESC LIMIT ${limit}`, values };
}
