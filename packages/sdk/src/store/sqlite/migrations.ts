import type Database from 'better-sqlite3';
import { StoreFailureError } from '../../core/errors/index.js';

/**
 * Schema migrations of `SqliteRunStore`. The position in the list is the version number: a
 * migration, once released, is never edited, only followed by a new one.
 */
export const sqliteMigrations: readonly string[] = [
  `CREATE TABLE agentloom_runs (
     run_id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL,
     status TEXT NOT NULL,
     owner_id TEXT,
     epoch INTEGER NOT NULL,
     lease_expires_at INTEGER NOT NULL,
     deadline_at INTEGER NOT NULL,
     loops_used INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     result TEXT
   ) STRICT;
   CREATE INDEX agentloom_runs_session ON agentloom_runs (session_id, created_at);
   CREATE TABLE agentloom_journal (
     run_id TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     epoch INTEGER NOT NULL,
     type TEXT NOT NULL,
     task_id TEXT,
     data TEXT NOT NULL,
     at INTEGER NOT NULL,
     PRIMARY KEY (run_id, sequence)
   ) STRICT, WITHOUT ROWID;`,
  // Version 2: the last sequence of each run is stored on its row, kept in step by every write,
  // so that reading a run or a session's runs costs no scan of the journal (issue 18).
  `ALTER TABLE agentloom_runs ADD COLUMN last_sequence INTEGER NOT NULL DEFAULT 0;
   UPDATE agentloom_runs SET last_sequence =
     (SELECT COALESCE(MAX(sequence), 0) FROM agentloom_journal WHERE agentloom_journal.run_id = agentloom_runs.run_id);`,
  // 3: what a run is (kind, name, host metadata) on its row, the index of newest-first listings,
  // and a summary row per session kept by triggers, so that listing sessions never groups all runs.
  `ALTER TABLE agentloom_runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'agent';
   ALTER TABLE agentloom_runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
   ALTER TABLE agentloom_runs ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
   CREATE INDEX agentloom_runs_created ON agentloom_runs (created_at, run_id);
   CREATE TABLE agentloom_sessions (
     session_id TEXT PRIMARY KEY,
     runs INTEGER NOT NULL,
     first_run_at INTEGER NOT NULL,
     last_run_at INTEGER NOT NULL
   ) STRICT;
   INSERT INTO agentloom_sessions (session_id, runs, first_run_at, last_run_at)
     SELECT session_id, COUNT(*), MIN(created_at), MAX(created_at) FROM agentloom_runs GROUP BY session_id;
   CREATE INDEX agentloom_sessions_recent ON agentloom_sessions (last_run_at, session_id);
   CREATE TRIGGER agentloom_runs_count_session AFTER INSERT ON agentloom_runs BEGIN
     INSERT INTO agentloom_sessions (session_id, runs, first_run_at, last_run_at)
       VALUES (NEW.session_id, 1, NEW.created_at, NEW.created_at)
       ON CONFLICT (session_id) DO UPDATE SET runs = runs + 1,
         first_run_at = MIN(first_run_at, excluded.first_run_at), last_run_at = MAX(last_run_at, excluded.last_run_at);
   END;
   CREATE TRIGGER agentloom_runs_uncount_session AFTER UPDATE OF status ON agentloom_runs
     WHEN NEW.status = 'deleted' AND OLD.status <> 'deleted' BEGIN
     DELETE FROM agentloom_sessions WHERE session_id = NEW.session_id;
     INSERT INTO agentloom_sessions (session_id, runs, first_run_at, last_run_at)
       SELECT session_id, COUNT(*), MIN(created_at), MAX(created_at) FROM agentloom_runs
       WHERE session_id = NEW.session_id AND status <> 'deleted' GROUP BY session_id;
   END;`,
  // 4: each finished run's digest on its row (its inputs and unconsumed supplements, written with
  // its terminal append), and the index that finds a session's most recent finished runs from its
  // end, so that a new run reads its session in one query without the earlier journals (issue 18).
  `ALTER TABLE agentloom_runs ADD COLUMN digest TEXT;
   CREATE INDEX agentloom_runs_session_finished ON agentloom_runs (session_id, created_at)
     WHERE status NOT IN ('pending', 'running', 'deleted');`,
  // 5: session checkpoints (ADR 0012). A finished run whose digest holds a checkpoint names the
  // earlier run it covers the session through, with that run's creation time, and the partial
  // index finds a session's newest checkpoint from its end, so that a new run reads only the runs
  // after it.
  `ALTER TABLE agentloom_runs ADD COLUMN checkpoint_through TEXT;
   ALTER TABLE agentloom_runs ADD COLUMN checkpoint_at INTEGER;
   CREATE INDEX agentloom_runs_session_checkpoint ON agentloom_runs (session_id, checkpoint_at)
     WHERE checkpoint_at IS NOT NULL;`,
  // 6: no table changes. An owner's plain append no longer rewrites its run's row (issue 34), so
  // an unfinished run's `last_sequence` and `updated_at` may lag behind its journal and are read
  // from the journal's newest entry. The version moves so that an older SDK, which would take the
  // row's last sequence for the journal's and collide with entries already written, refuses the
  // file instead of opening it.
  `-- version 6: run rows of unfinished runs are completed from their journal on read`,
];

/** Brings the file's schema to the newest version, in one immediate transaction; a newer file is refused. */
export function migrate(database: Database.Database): void {
  // An up-to-date file needs no write lock: opening a store never waits for a busy writer then.
  const schemaTable = database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agentloom_schema'").get();
  if (schemaTable) {
    const version = database.prepare<[], { version: number }>('SELECT version FROM agentloom_schema').get()?.version;
    if (version === sqliteMigrations.length) return;
  }
  database.exec('CREATE TABLE IF NOT EXISTS agentloom_schema (version INTEGER NOT NULL) STRICT');
  const apply = database.transaction(() => {
    const row = database.prepare<[], { version: number }>('SELECT version FROM agentloom_schema').get();
    const current = row?.version ?? 0;
    if (current > sqliteMigrations.length) {
      throw new StoreFailureError(`SQLite run store schema ${current} is newer than this SDK supports.`);
    }
    for (let version = current; version < sqliteMigrations.length; version += 1) {
      database.exec(sqliteMigrations[version] as string);
    }
    if (row) database.prepare('UPDATE agentloom_schema SET version = ?').run(sqliteMigrations.length);
    else database.prepare('INSERT INTO agentloom_schema (version) VALUES (?)').run(sqliteMigrations.length);
  });
  apply.immediate();
}
